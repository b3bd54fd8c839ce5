/// A failed SQLite call: what was attempted, SQLite's result code and its message.
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: Int32
    package var message: String
    package var context: String

    package init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// One line, whatever the context holds (a multi-line statement is shown with its white space
    /// collapsed, and shortened), as the command line prints errors.
    package var description: String {
        let words = context.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        var shown = words.joined(separator: " ")
        if shown.count > 120 { shown = shown.prefix(117) + "..." }
        return "\(shown): \(message) (SQLite code \(code))"
    }
}
