/// One result row, read by column name: a column the statement does not return, or a value of the wrong
/// type (NULL where one is required included), is an error (`SQLITE_CORRUPT`) naming the column, never a
/// default that would pass for data.
package struct SQLiteRow: Sendable {
    /// Column positions by name, shared by every row of a statement.
    package let positions: [String: Int]
    package let values: [SQLiteValue]

    package init(positions: [String: Int], values: [SQLiteValue]) {
        self.positions = positions
        self.values = values
    }

    /// The value of `column`, NULL included.
    package func value(_ column: String) throws(SQLiteError) -> SQLiteValue {
        guard let position = positions[column], position < values.count else {
            throw Self.corrupt(
                column, "is missing from the row (columns: \(positions.keys.sorted().joined(separator: ", ")))")
        }
        return values[position]
    }

    package func integer(_ column: String) throws(SQLiteError) -> Int64 {
        guard let value = try optionalInteger(column) else { throw Self.corrupt(column, "is NULL") }
        return value
    }

    package func real(_ column: String) throws(SQLiteError) -> Double {
        guard let value = try optionalReal(column) else { throw Self.corrupt(column, "is NULL") }
        return value
    }

    package func text(_ column: String) throws(SQLiteError) -> String {
        guard let value = try optionalText(column) else { throw Self.corrupt(column, "is NULL") }
        return value
    }

    package func optionalInteger(_ column: String) throws(SQLiteError) -> Int64? {
        try typed(column, "an integer") { $0.integer }
    }

    package func optionalReal(_ column: String) throws(SQLiteError) -> Double? {
        try typed(column, "a number") { $0.real }
    }

    package func optionalText(_ column: String) throws(SQLiteError) -> String? {
        try typed(column, "text") { $0.text }
    }

    package func optionalBlob(_ column: String) throws(SQLiteError) -> [UInt8]? {
        try typed(column, "a blob") { $0.blob }
    }

    private func typed<Value>(_ column: String, _ kind: String, _ read: (SQLiteValue) -> Value?)
        throws(SQLiteError) -> Value?
    {
        let value = try value(column)
        if value == .null { return nil }
        guard let typed = read(value) else { throw Self.corrupt(column, "holds \(value.kind), not \(kind)") }
        return typed
    }

    /// `SQLITE_CORRUPT`, with the column and what is wrong with it.
    package static func corrupt(_ column: String, _ problem: String) -> SQLiteError {
        SQLiteError(code: 11, message: "the column '\(column)' \(problem)", context: "reading a row")
    }
}

extension SQLiteValue {
    /// What kind of value this is, for messages.
    var kind: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a number"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}
