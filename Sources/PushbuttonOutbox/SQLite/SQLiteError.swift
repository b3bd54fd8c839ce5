/// A failed SQLite call: what was attempted, SQLite's result code and its message.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String { "\(context): \(message) (SQLite code \(code))" }
}
