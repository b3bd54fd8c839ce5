import Foundation

#if canImport(SQLite3)
    internal import SQLite3
#else
    internal import CSQLite
#endif

/// A value bound to, or read from, an SQL statement.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    package var text: String? { if case .text(let value) = self { value } else { nil } }
    package var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

/// One SQLite connection, shared by the outbox and the gateway's store. Not thread-safe: its owner confines
/// it (the outbox inside an actor, the store in a connection pool).
///
/// The file is created with mode 0600 before SQLite opens it (it holds user data), journaling is WAL,
/// `synchronous=FULL` makes every commit durable (fsync), and a busy timeout lets several processes share
/// the file.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    package let path: String
    /// Prepared statements by SQL text: the outbox runs the same few statements for every tap.
    private var statements: [String: OpaquePointer] = [:]
    private var positionsBySQL: [String: [String: Int]] = [:]
    /// Whether writes work, as this connection has seen them (read from other threads, for `/readyz`).
    package let writeHealth: SQLiteWriteHealth

    /// - Parameters:
    ///   - busyTimeoutMilliseconds: how long a statement waits for another connection's lock.
    ///   - cacheKiB: SQLite's page cache for this connection (`nil`: SQLite's default, 2 MiB).
    package init(path: String, busyTimeoutMilliseconds: Int32 = 5000, cacheKiB: Int? = nil) throws(SQLiteError) {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        writeHealth = SQLiteWriteHealth(directory: directory.isEmpty ? "." : directory)
        try Self.createPrivately(path)
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw SQLiteError(code: result, message: message, context: "opening \(path)")
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        // Switching a new database to WAL takes an exclusive lock, and SQLite does not always wait for it
        // with the busy handler: processes opening one new database at once retry instead of failing.
        var attempt = 0
        while true {
            do {
                try execute("PRAGMA journal_mode=WAL")
                break
            } catch  where (error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED) && attempt < 100 {
                attempt += 1
                usleep(20_000)
            }
        }
        try execute("PRAGMA synchronous=FULL")
        try execute("PRAGMA foreign_keys=ON")
        if let cacheKiB { try execute("PRAGMA cache_size=-\(cacheKiB)") }
    }

    /// Creates the file with mode 0600 when it does not exist yet, and narrows an existing file's mode by path.
    ///
    /// An existing file is never opened and closed here: `close()` on any descriptor of a file drops every
    /// POSIX lock this process holds on it, SQLite's connections' locks included (SQLite's "How To Corrupt",
    /// §2.2). Without its shared lock another process (an operator's `sqlite3`) takes itself for the last
    /// connection, checkpoints and unlinks the `-wal` file, and later commits go to a deleted file.
    private static func createPrivately(_ path: String) throws(SQLiteError) {
        let descriptor = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            // A file that did not exist has no SQLite connection in this process whose locks closing it could drop.
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw SQLiteError(
                code: SQLITE_CANTOPEN, message: String(cString: strerror(errno)),
                context: "creating \(path): check that its directory exists and is writable")
        }
        // An existing file made with a wider mode is narrowed too: it holds user data. By path, not by descriptor.
        // A file this user cannot chmod (another owner's) is left as it is: SQLite's open reports what matters.
        chmod(path, 0o600)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return nothing.
    package func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        guard result == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            let failure = SQLiteError(code: result, message: message, context: sql)
            writeHealth.noteFailure(failure)
            throw failure
        }
        if sql == "COMMIT" { writeHealth.noteCommit() }
    }

    /// Runs one statement with bound values; returns its rows.
    @discardableResult
    package func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try withStatement(sql) { statement throws(SQLiteError) in
            for (offset, value) in values.enumerated() { try statement.bind(Int32(offset + 1), value) }
            var rows: [[SQLiteValue]] = []
            let columns = statement.columnCount
            while try statement.step() { rows.append((0..<columns).map { statement.value($0) }) }
            return rows
        }
    }

    /// Lends `sql`'s prepared statement (prepared once per connection) to `body`, which binds its values and
    /// steps its rows in place; the statement is reset and its bindings cleared afterwards.
    package func withStatement<Result>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> Result)
        throws(SQLiteError) -> Result
    {
        do {
            let statement = try prepared(sql)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            let result = try body(SQLiteStatement(handle: statement, database: handle, sql: sql))
            // A statement that writes, run outside a transaction, committed.
            if !isInTransaction && sqlite3_stmt_readonly(statement) == 0 { writeHealth.noteCommit() }
            return result
        } catch {
            writeHealth.noteFailure(error)
            throw error
        }
    }

    /// Runs one statement with bound values; returns its rows, to be read by column name.
    package func rows(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        let rows = try query(sql, values)
        guard !rows.isEmpty else { return [] }
        let positions = try columnPositions(sql)
        return rows.map { SQLiteRow(positions: positions, values: $0) }
    }

    /// The result columns of a prepared statement, by name (kept with the statement).
    private func columnPositions(_ sql: String) throws(SQLiteError) -> [String: Int] {
        if let positions = positionsBySQL[sql] { return positions }
        let statement = try prepared(sql)
        var positions: [String: Int] = [:]
        for index in 0..<sqlite3_column_count(statement) {
            if let name = sqlite3_column_name(statement, index) { positions[String(cString: name)] = Int(index) }
        }
        positionsBySQL[sql] = positions
        return positions
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard result == SQLITE_OK, let statement else { throw failure(result, sql) }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so writers queue instead of failing later).
    ///
    /// - Parameter durable: `false` commits without an fsync (`synchronous=NORMAL` under WAL): the commit
    ///   survives the process being killed, and a power loss may undo it (never corrupting the file), so it
    ///   suits bookkeeping that is safe to redo, such as a delivery's outcome under at-least-once delivery.
    package func transaction<Result>(durable: Bool = true, _ body: () throws(SQLiteError) -> Result)
        throws(SQLiteError) -> Result
    {
        // Every other write (autocommit statements included) stays fsynced: only this transaction is not.
        if !durable { try execute("PRAGMA synchronous=NORMAL") }
        defer { if !durable { try? execute("PRAGMA synchronous=FULL") } }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            commits += 1
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a savepoint inside the current transaction: if it throws, what it changed is undone
    /// and the transaction goes on (one request of a group commit failing loses none of the others).
    package func savepoint<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("SAVEPOINT one")
        do {
            let result = try body()
            try execute("RELEASE one")
            return result
        } catch {
            // An I/O error or a full disk can roll the whole transaction back: then there is nothing to undo.
            if isInTransaction { try? execute("ROLLBACK TO one; RELEASE one") }
            throw error
        }
    }

    /// Whether a transaction is open on this connection.
    package var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Transactions this connection has committed with ``transaction(_:)`` (a group commit is one).
    package private(set) var commits = 0

    /// Changes on every other connection's commit (SQLite's `PRAGMA data_version`): a figure cached from
    /// the database stays exact while this is unchanged.
    package func dataVersion() throws(SQLiteError) -> Int64 {
        try query("PRAGMA data_version").first?.first?.integer ?? 0
    }

    /// Rows changed by the last statement.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id of the last insert.
    package var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    private func failure(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), context: sql)
    }
}
