import Foundation

#if canImport(SQLite3)
    internal import SQLite3
    private let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) -> Int32 {
        sqlite3_bind_text(statement, index, text, -1, transient)
    }
    private func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawPointer?, _ count: Int32)
        -> Int32
    {
        sqlite3_bind_blob(statement, index, bytes, count, transient)
    }
#else
    internal import CSQLite
    private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) -> Int32 {
        pushbutton_sqlite3_bind_text_transient(statement, index, text, -1)
    }
    private func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: UnsafeRawPointer?, _ count: Int32)
        -> Int32
    {
        pushbutton_sqlite3_bind_blob_transient(statement, index, bytes, count)
    }
#endif

/// One SQLite connection: the file created 0600 before SQLite opens it, WAL journaling, `synchronous=FULL`
/// (a commit is on disk before the gateway answers 202), and prepared statements kept by SQL text.
final class SQLiteConnection: SQLConnection {
    private var handle: OpaquePointer?
    let path: String
    private var statements: [String: OpaquePointer] = [:]
    let beginTransaction = "BEGIN IMMEDIATE"

    /// - Parameter cacheKiB: SQLite's page cache for this connection. The default (2 MiB) makes a large queue
    ///   re-read its pages from the kernel on every lease; the writer gets more.
    init(path: String, cacheKiB: Int = 2048) throws(StoreError) {
        self.path = path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(String(cString: strerror(errno)), context: "creating \(path)")
        }
        fchmod(descriptor, 0o600)
        close(descriptor)
        let result = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard result == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw StoreError(message, context: "opening \(path)")
        }
        sqlite3_busy_timeout(handle, 10_000)
        try script("PRAGMA journal_mode=WAL")
        try script("PRAGMA synchronous=FULL")
        try script("PRAGMA foreign_keys=ON")
        try script("PRAGMA cache_size=-\(cacheKiB)")
        // SQLite creates the -wal and -shm files with the database's mode (0600) once WAL is on.
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func script(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        guard result == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StoreError(message, context: sql)
        }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> (rows: [[SQLValue]], changes: Int) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let bound: Int32
            switch value {
            case .null: bound = sqlite3_bind_null(statement, index)
            case .integer(let integer): bound = sqlite3_bind_int64(statement, index, integer)
            case .real(let real): bound = sqlite3_bind_double(statement, index, real)
            case .text(let text): bound = bindText(statement, index, text)
            case .blob(let bytes):
                bound = bytes.withUnsafeBytes { bindBlob(statement, index, $0.baseAddress, Int32($0.count)) }
            }
            guard bound == SQLITE_OK else { throw failure(sql) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return (rows, Int(sqlite3_changes(handle))) }
            guard step == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw failure(sql) }
        statements[sql] = statement
        return statement
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func failure(_ sql: String) -> StoreError {
        StoreError(String(cString: sqlite3_errmsg(handle)), context: sql)
    }
}
