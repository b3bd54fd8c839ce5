import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Migration 64: a device's tags are found by its token, so registering or forgetting one device does not read
/// every tag of its app (the primary key leads with the tag).
@Suite(.timeLimit(.minutes(3)))
struct DeviceTagsIndexTests {
    static let deleteByToken = "DELETE FROM device_tags WHERE app = 'chat' AND token = 'abc'"

    @Test func sqliteDeletesADevicesTagsThroughTheTokenIndex() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushbutton-device-tags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("gateway.db").path)
        try StoreMigrations.migrateSQLite(connection.database, now: Date())
        let plan = try connection.query("EXPLAIN QUERY PLAN \(Self.deleteByToken)")
            .compactMap { $0.last?.text }.joined(separator: "\n")
        #expect(plan.contains("device_tags_token"), "plan: \(plan)")
    }

    @Test func postgresDeletesADevicesTagsThroughTheTokenIndex() throws {
        let connection = try PostgresConnection(url: try TestPostgres.shared.freshDatabase())
        try StoreMigrations.migrate(connection, dialect: .postgres, now: Date())
        // An empty table is read whole whatever its indexes: the planner is asked what it would use if it could not.
        try connection.query("SET enable_seqscan = off")
        let plan = try connection.query("EXPLAIN \(Self.deleteByToken)").compactMap { $0.first?.text }
            .joined(separator: "\n")
        #expect(plan.contains("device_tags_token"), "plan: \(plan)")
    }
}
