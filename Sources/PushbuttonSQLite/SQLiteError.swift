/// A failed SQLite call: what was attempted, SQLite's result code and its message.
///
/// Public because the outbox's `OutboxError` carries it in the outbox's public API.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// One line, whatever the context holds (a multi-line statement is shown with its white space
    /// collapsed, and shortened), as the command line prints errors.
    public var description: String {
        let words = context.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        var shown = words.joined(separator: " ")
        if shown.count > 120 { shown = shown.prefix(117) + "..." }
        return "\(shown): \(message) (SQLite code \(code))"
    }
}
