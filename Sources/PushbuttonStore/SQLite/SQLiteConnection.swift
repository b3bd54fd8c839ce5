import Foundation
import PushbuttonSQLite

/// One SQLite connection of the store: the shared `PushbuttonSQLite` connection (the file created 0600 before
/// SQLite opens it, WAL, retried while another process switches a new file to WAL, `synchronous=FULL` so a
/// commit is on disk before the gateway answers 202, prepared statements kept by SQL text), seen as an
/// ``SQLConnection``.
final class SQLiteConnection: SQLConnection {
    let database: SQLiteDatabase
    let beginTransaction = "BEGIN IMMEDIATE"

    /// - Parameter cacheKiB: SQLite's page cache for this connection. The default (2 MiB) makes a large queue
    ///   re-read its pages from the kernel on every lease; the writer gets more.
    init(path: String, cacheKiB: Int = 2048) throws(StoreError) {
        do {
            database = try SQLiteDatabase(path: path, busyTimeoutMilliseconds: 10_000, cacheKiB: cacheKiB)
        } catch {
            throw StoreError(error)
        }
    }

    func script(_ sql: String) throws(StoreError) {
        do { try database.execute(sql) } catch { throw StoreError(error) }
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> (rows: [[SQLValue]], changes: Int) {
        do {
            let rows = try database.query(sql, values.map(\.sqlite))
            return (rows.map { $0.map(SQLValue.init) }, database.changes)
        } catch {
            throw StoreError(error)
        }
    }
}

extension StoreError {
    init(_ error: SQLiteError) { self.init("\(error.message) (SQLite code \(error.code))", context: error.context) }
}

extension SQLValue {
    var sqlite: SQLiteValue {
        switch self {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }

    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }
}
