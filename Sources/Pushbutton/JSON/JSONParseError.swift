/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. "expected ',' or '}' after an object member".
    public var message: String
    /// Where the parser stopped.
    public var location: SourceLocation

    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
