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

    private func openStore() throws -> SQLGatewayStore {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushbutton-store-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try SQLGatewayStore.sqlite(path: directory.appendingPathComponent("gateway.db").path)
        case .postgres:
            return try SQLGatewayStore.postgres(url: try TestPostgres.shared.freshDatabase(), connections: 4)
        }
    }
}
