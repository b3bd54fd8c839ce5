import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// A store as an older release left it, then opened by this one: a fresh SQLite file or PostgreSQL database
/// migrated through the migrations before `before` (an index in `StoreMigrations.migrations`), filled by
/// `populate` on that older schema, then opened (which applies the rest). The migration tests' one way to start.
enum UpgradedStore {
    /// The opened store and where its database is (an SQLite path or a PostgreSQL URL).
    static func open(
        _ backend: StoreBackend, before: Int, now: Date,
        populate: @escaping @Sendable (any SQLConnection) throws -> Void
    ) async throws -> (store: SQLGatewayStore, location: String) {
        try await Blocking.run { () throws -> (SQLGatewayStore, String) in
            switch backend {
            case .sqlite:
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "pushbutton-migration-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let path = directory.appendingPathComponent("gateway.db").path
                let old = try SQLiteConnection(path: path)
                try StoreMigrations.migrateSQLite(old.database, now: now, through: before)
                try populate(old)
                return (try SQLGatewayStore.sqlite(path: path, now: now), path)
            case .postgres:
                let url = try TestPostgres.shared.freshDatabase()
                let old = try PostgresConnection(url: url)
                try StoreMigrations.migrate(old, dialect: .postgres, now: now, through: before)
                try populate(old)
                return (try SQLGatewayStore.postgres(url: url, connections: 2, now: now), url)
            }
        }
    }
}
