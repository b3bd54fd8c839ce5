import Foundation
import PushbuttonSQLite
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

/// The shared migrator as another kind of database (the gateway's store) uses it: its own migrations and its
/// own "is this ours" check.
@Suite struct SQLiteMigratorTests {
    static let store = SQLiteMigrator(
        kind: "a Pushbutton gateway store",
        migrations: [("1-create-devices", "CREATE TABLE devices (token TEXT PRIMARY KEY);")],
        recognises: { $0.contains("devices") })

    @Test func aDatabaseTheCheckRecognisesIsMigratedKeepingItsRows() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let database = try SQLiteDatabase(path: fixture.path)
        // A store from before migrations were recorded: its table, no schema_migrations.
        try database.execute("CREATE TABLE devices (token TEXT PRIMARY KEY); INSERT INTO devices VALUES ('t1');")
        let lenient = SQLiteMigrator(
            kind: "a Pushbutton gateway store", migrations: [("2-create-tags", "CREATE TABLE tags (tag TEXT);")],
            recognises: { $0.contains("devices") })
        #expect(try lenient.migrate(database, now: 0) == ["2-create-tags"])
        #expect(try database.query("SELECT token FROM devices").compactMap { $0.first?.text } == ["t1"])
    }

    @Test func aDatabaseTheCheckDoesNotRecogniseIsRefusedUntouched() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let database = try SQLiteDatabase(path: fixture.path)
        try database.execute("CREATE TABLE people (name TEXT);")
        #expect {
            try Self.store.migrate(database, now: 0)
        } throws: { error in
            "\(error)".contains(
                "is not a Pushbutton gateway store (it has the tables 'people' and no schema_migrations)")
        }
        let tables = try database.query("SELECT name FROM sqlite_master ORDER BY name").compactMap { $0.first?.text }
        #expect(tables == ["people"])
    }

    @Test func aGatewayStoreOpenedAsAnOutboxIsRefusedAsNotAnOutbox() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try Self.store.migrate(try SQLiteDatabase(path: fixture.path), now: 0)
        #expect {
            try fixture.outbox()
        } throws: { error in
            "\(error)".contains("is not a Pushbutton outbox") && !"\(error)".contains("newer version")
        }
    }

    @Test func anExistingFileWithAWiderModeIsNarrowedTo0600() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        #expect(
            FileManager.default.createFile(atPath: fixture.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        _ = try SQLiteDatabase(path: fixture.path)
        let mode = try FileManager.default.attributesOfItem(atPath: fixture.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theCacheSizeIsSetWhenGiven() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let database = try SQLiteDatabase(path: fixture.path, cacheKiB: 8192)
        #expect(try database.query("PRAGMA cache_size").first?.first?.integer == -8192)
    }
}
