#if canImport(SQLite3)
    internal import SQLite3
    private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: UnsafePointer<CChar>, _ count: Int32)
        -> Int32
    {
        sqlite3_bind_text(statement, index, text, count, transient)
    }
    private func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawPointer?, _ count: Int32)
        -> Int32
    {
        sqlite3_bind_blob(statement, index, bytes, count, transient)
    }
#else
    internal import CSQLite
    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: UnsafePointer<CChar>, _ count: Int32)
        -> Int32
    {
        pushbutton_sqlite3_bind_text_transient(statement, index, text, count)
    }
    private func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawPointer?, _ count: Int32)
        -> Int32
    {
        pushbutton_sqlite3_bind_blob_transient(statement, index, bytes, count)
    }
#endif

/// A prepared statement lent by ``SQLiteDatabase/withStatement(_:_:)``: values are bound and result columns
/// read in place, so a caller builds its own rows without an intermediate `[[SQLiteValue]]` (one array and one
/// value per column fewer for every row). Valid only inside that call.
package struct SQLiteStatement {
    let handle: OpaquePointer
    let database: OpaquePointer?
    let sql: String

    /// The kind of a result column's value in the current row.
    package enum Kind { case null, integer, real, text, blob }

    package func bindNull(_ index: Int32) throws(SQLiteError) { try check(sqlite3_bind_null(handle, index)) }

    package func bind(_ index: Int32, integer: Int64) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, integer))
    }

    package func bind(_ index: Int32, real: Double) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, real))
    }

    package func bind(_ index: Int32, text: String) throws(SQLiteError) {
        var text = text
        // UTF-8 bytes with their length: no terminator to find, and no copy for a native string.
        let bound = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                // An empty buffer's base address may be nil, and SQLite binds NULL for a null pointer.
                guard let base = chars.baseAddress else { return bindText(handle, index, "", 0) }
                return bindText(handle, index, base, Int32(chars.count))
            }
        }
        try check(bound)
    }

    package func bind(_ index: Int32, blob: [UInt8]) throws(SQLiteError) {
        try check(blob.withUnsafeBytes { bindBlob(handle, index, $0.baseAddress, Int32($0.count)) })
    }

    /// Binds one value (`index` counts from 1).
    package func bind(_ index: Int32, _ value: SQLiteValue) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(index)
        case .integer(let integer): try bind(index, integer: integer)
        case .real(let real): try bind(index, real: real)
        case .text(let text): try bind(index, text: text)
        case .blob(let bytes): try bind(index, blob: bytes)
        }
    }

    /// Steps to the next row: `false` once there are no more.
    package func step() throws(SQLiteError) -> Bool {
        let step = sqlite3_step(handle)
        if step == SQLITE_DONE { return false }
        guard step == SQLITE_ROW else { throw failure(step) }
        return true
    }

    /// The number of result columns.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    package func kind(_ column: Int32) -> Kind {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    package func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func real(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    package func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    package func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The current row's value in `column`.
    package func value(_ column: Int32) -> SQLiteValue {
        switch kind(column) {
        case .integer: .integer(integer(column))
        case .real: .real(real(column))
        case .text: .text(text(column))
        case .blob: .blob(blob(column))
        case .null: .null
        }
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: database.map { String(cString: sqlite3_errmsg($0)) } ?? "", context: sql)
    }
}
