import Foundation
import PushbuttonSQLite

/// A fixed set of connections, each lent to one caller at a time.
///
/// `@unchecked Sendable`: the connections (classes that are not thread-safe) are only reached through
/// ``with(_:)``, which hands each to one thread at a time under the condition's lock.
final class ConnectionPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [any SQLConnection]
    /// Whether writes work on the SQLite connections lent here, readable without borrowing them (`/readyz`);
    /// empty for PostgreSQL, whose server answers each statement itself.
    let writeHealth: [SQLiteWriteHealth]

    init(_ connections: [any SQLConnection]) {
        idle = connections
        writeHealth = connections.compactMap { ($0 as? SQLiteConnection)?.database.writeHealth }
    }

    func with<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
        condition.lock()
        while idle.isEmpty { condition.wait() }
        let connection = idle.removeLast()
        condition.unlock()
        defer {
            condition.lock()
            idle.append(connection)
            condition.signal()
            condition.unlock()
        }
        return try body(connection)
    }
}
