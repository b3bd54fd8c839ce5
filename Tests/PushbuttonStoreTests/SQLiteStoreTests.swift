import Foundation
import PushbuttonSQLite
import PushbuttonStore
import Testing

@Suite(.timeLimit(.minutes(5)))
struct SQLiteStoreTests {
    @Test func theDatabaseFileIsPrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gateway.db").path
        let store = try SQLGatewayStore.sqlite(path: path)
        try store.ping()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Opening it again applies nothing new and keeps what is there.
        _ = try store.enqueue(
            NotificationSpec(id: "n1", app: "a", kind: .notification, topic: "t", createdAt: Date()), deliveries: [],
            idempotency: nil, now: Date())
        let reopened = try SQLGatewayStore.sqlite(path: path)
        #expect(try reopened.notification(id: "n1", limit: 0, after: 0) != nil)
    }

    static func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("gateway.db").path
    }

    /// The shared migrator refuses, untouched, a database that is something else (an outbox here).
    @Test func aDatabaseThatIsNotAStoreIsRefusedUntouched() throws {
        let path = try Self.temporaryPath()
        let other = try SQLiteDatabase(path: path)
        try other.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY)")
        #expect {
            try SQLGatewayStore.sqlite(path: path)
        } throws: { error in
            "\(error)".contains("the database is not a Pushbutton gateway store")
        }
        let tables = try other.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        #expect(tables.compactMap { $0.first?.text } == ["outbox"])
    }

    @Test func aStoreMadeByANewerVersionIsRefused() throws {
        let path = try Self.temporaryPath()
        _ = try SQLGatewayStore.sqlite(path: path)
        let database = try SQLiteDatabase(path: path)
        try database.query("INSERT INTO schema_migrations (name, applied_at) VALUES ('99-from-the-future', 0)")
        #expect {
            try SQLGatewayStore.sqlite(path: path)
        } throws: { error in
            "\(error)".contains("'99-from-the-future', which this Pushbutton does not know")
        }
    }
}
