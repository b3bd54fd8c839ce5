import Foundation
import PushbuttonStore
import PushbuttonTestSupport

/// The one PostgreSQL server this test process starts (on first use) and stops when it exits.
enum TestPostgres {
    static let shared: PostgresTestCluster = {
        do {
            let cluster = try PostgresTestCluster()
            started = cluster
            atexit { TestPostgres.started?.stop() }
            return cluster
        } catch {
            fatalError("cannot start PostgreSQL for the store tests: \(error)")
        }
    }()
    /// Written once, inside `shared`'s one-time initializer; read by the exit handler.
    nonisolated(unsafe) static var started: PostgresTestCluster?
}
