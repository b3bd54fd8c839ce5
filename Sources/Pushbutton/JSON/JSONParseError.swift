/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var message: String
    /// Where the parser stopped.
    public var location: SourceLocation

    /// Creates an error saying `message` about the text at `location`.
    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `line:column: message`, as compilers print errors.
    public var description: String { "\(location): \(message)" }
}
