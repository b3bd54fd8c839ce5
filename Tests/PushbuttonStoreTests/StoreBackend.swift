import Foundation
import PushbuttonStore
import PushbuttonTestSupport

/// The stores the shared suite runs against: SQLite in a temporary file, and PostgreSQL when the server
/// binaries are installed (a throwaway cluster started by ``TestPostgres``).
enum StoreBackend: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    var description: String { rawValue }

    /// A fresh store. Starting PostgreSQL (initdb, pg_ctl) and creating a database take seconds under load: it
    /// happens on a Dispatch thread, never on one of Swift's cooperative threads the other suites need.
    func makeStore() async throws -> SQLGatewayStore {
        let backend = self
        return try await Blocking.run { try backend.openStore() }
    }

    /// Two stores on one fresh database, as two processes open it.
    func makeTwoStores() async throws -> (SQLGatewayStore, SQLGatewayStore) {
        let backend = self
        return try await Blocking.run {
            let location = try backend.freshLocation()
            return (try backend.open(location), try backend.open(location))
        }
    }

    private func openStore() throws -> SQLGatewayStore {
        try open(try freshLocation())
    }

    /// A new SQLite file's path, or a new PostgreSQL database's URL.
    private func freshLocation() throws -> String {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushbutton-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("gateway.db").path
        case .postgres:
            return try TestPostgres.shared.freshDatabase()
        }
    }

    private func open(_ location: String) throws -> SQLGatewayStore {
        switch self {
        case .sqlite: try SQLGatewayStore.sqlite(path: location)
        case .postgres: try SQLGatewayStore.postgres(url: location, connections: 4)
        }
    }
}
