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
            // Bound from and stepped into `SQLValue`s in place: no `SQLiteValue` copy of the values or rows.
            let rows = try database.withStatement(sql) { statement throws(SQLiteError) -> [[SQLValue]] in
                var index: Int32 = 1
                for value in values {
                    switch value {
                    case .null: try statement.bindNull(index)
                    case .integer(let integer): try statement.bind(index, integer: integer)
                    case .real(let real): try statement.bind(index, real: real)
                    case .text(let text): try statement.bind(index, text: text)
                    case .blob(let blob): try statement.bind(index, blob: blob)
                    }
                    index += 1
                }
                var rows: [[SQLValue]] = []
                let columns = statement.columnCount
                while try statement.step() {
                    var row: [SQLValue] = []
                    row.reserveCapacity(Int(columns))
                    for column in 0..<columns {
                        switch statement.kind(column) {
                        case .null: row.append(.null)
                        case .integer: row.append(.integer(statement.integer(column)))
                        case .real: row.append(.real(statement.real(column)))
                        case .text: row.append(.text(statement.text(column)))
                        case .blob: row.append(.blob(statement.blob(column)))
                        }
                    }
                    rows.append(row)
                }
                return rows
            }
            return (rows, database.changes)
        } catch {
            throw StoreError(error)
        }
    }
}

extension StoreError {
    init(_ error: SQLiteError) { self.init("\(error.message) (SQLite code \(error.code))", context: error.context) }
}
