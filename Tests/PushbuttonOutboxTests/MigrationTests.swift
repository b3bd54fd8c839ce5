import Foundation
import PushbuttonSQLite
import Testing

@testable import PushbuttonOutbox

@Suite struct MigrationTests {
    @Test func aDatabaseFromAnOlderVersionIsMigratedAndKeepsItsData() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        do {
            // The database as the first release left it: only the first migration.
            let old = try SQLiteDatabase(path: fixture.path)
            try old.execute("CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
            try old.execute(OutboxSchema.migrations[0].sql)
            try old.query("INSERT INTO schema_migrations VALUES (?, 0)", [.text(OutboxSchema.migrations[0].name)])
            try old.query(
                """
                INSERT INTO outbox (idempotency_key, url, method, state, created_at, next_attempt_at, expires_at)
                VALUES ('kept', 'https://x.test', 'POST', 'pending', 0, 0, 9999999999)
                """)
        }
        let outbox = try fixture.outbox()
        #expect(try await outbox.entries(.pending).map(\.idempotencyKey) == ["kept"])
        let applied = try await outbox.query("SELECT name FROM schema_migrations ORDER BY name").compactMap {
            $0.first?.text
        }
        #expect(applied == OutboxSchema.migrations.map(\.name))
        // The new table works.
        #expect(try await outbox.tapSummary().totalResponses == 0)
    }

    @Test func aDatabaseFromANewerVersionIsRefused() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        _ = try fixture.outbox()
        let database = try SQLiteDatabase(path: fixture.path)
        try database.query("INSERT INTO schema_migrations VALUES ('99-from-the-future', 0)")
        #expect {
            try fixture.outbox()
        } throws: { error in
            "\(error)".contains("made by a newer version")
        }
    }

    @Test func migratingTwiceChangesNothing() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let database = try SQLiteDatabase(path: fixture.path)
        #expect(try OutboxSchema.migrator.migrate(database, now: 0).count == OutboxSchema.migrations.count)
        #expect(try OutboxSchema.migrator.migrate(database, now: 0).isEmpty)
    }
}
