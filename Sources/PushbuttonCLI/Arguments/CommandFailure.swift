/// A command that ran but could not do its job (a missing file, an invalid manifest). Exit status 1.
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
