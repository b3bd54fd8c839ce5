/// A command line that cannot be run as written. The CLI prints it on one line and exits with status 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
