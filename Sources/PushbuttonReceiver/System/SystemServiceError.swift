/// Why a system service could not do what it was asked (no window to show the prompt in, no URL to open, …).
public struct SystemServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
