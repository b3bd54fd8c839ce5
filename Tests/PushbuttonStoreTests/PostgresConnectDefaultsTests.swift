import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// libpq's connect defaults for a long-running server (a connect timeout, TCP keepalives, the application's
/// name in `pg_stat_activity`), each overridden by what the store's URL names.
@Suite(.timeLimit(.minutes(2)))
struct PostgresConnectDefaultsTests {
    static func setting(_ name: String, url: String) throws -> SQLValue? {
        let connection = try PostgresConnection(url: url)
        return try connection.query("SELECT current_setting('\(name)')").first?.first
    }

    @Test func theDefaultsApplyAndTheURLWins() async throws {
        try await Blocking.run {
            let url = try TestPostgres.shared.freshDatabase()
            #expect(try Self.setting("application_name", url: url) == .text("pushbutton"))
            let named = url + "?application_name=billing-gateway"
            #expect(try Self.setting("application_name", url: named) == .text("billing-gateway"))
            // A key=value connection string is expanded the same way.
            let database = PostgresTestCluster.database(in: url)
            let pairs = "host=127.0.0.1 port=\(TestPostgres.shared.port) user=postgres dbname=\(database)"
            #expect(try Self.setting("application_name", url: pairs) == .text("pushbutton"))
        }
        #expect(PostgresConnectDefaults.parameters.contains { $0 == ("connect_timeout", "10") })
        #expect(PostgresConnectDefaults.parameters.contains { $0 == ("keepalives", "1") })
    }
}
