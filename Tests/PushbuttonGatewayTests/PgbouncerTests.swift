import Foundation
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonStore

/// The gateway behind Debian's pgbouncer: in session mode it works as on PostgreSQL itself (a notification
/// posted to one process is sent by an idle other, woken by LISTEN through the pooler); in transaction mode it
/// refuses to start with one line saying why (its prepared statements, the migrations' advisory lock and LISTEN
/// need a session per connection).
@Suite(
    .serialized, .timeLimit(.minutes(5)), .enabled(if: PgbouncerTestServer.isInstalled, "pgbouncer is not installed"))
struct PgbouncerTests {
    @Test func sessionModeWorksAndListenWakesAnotherProcess() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let bouncer = try await Blocking.run { try PgbouncerTestServer(cluster: cluster, mode: "session") }
        defer { bouncer.stop() }
        let url = bouncer.url(try await Blocking.run { try cluster.freshDatabase() })
        let setup = try await WakeOnCommitTests.Setup()
        defer { setup.remove() }
        // A takes the request and has no worker; B has one, idle (its fallback poll's clock never moves), and
        // hears A's NOTIFY through pgbouncer.
        let a = try await setup.gateway(store: url, workers: 0, clock: ManualClock())
        let clockB = ManualClock()
        let b = try await setup.gateway(store: url, workers: 1, clock: clockB)
        let listener = try #require((b.store as? SQLGatewayStore)?.committedWork.listener)
        await listener.waitUntil { $0.connections >= 1 }
        await clockB.waitForSleepers(1)
        for number in 1...3 {
            let token = GatewayFixture.token(40 + number)
            #expect(try await setup.post(token, to: a) == 202)
            #expect(await setup.arrivals.next() == token)
        }
        await listener.waitUntil { $0.notices >= 1 }
        #expect(b.workers.signal.wakes(.timedOut) == 0, "woken by NOTIFY, not by the poll")
        await a.stop()
        await b.stop()
        await setup.mock.stop()
    }

    @Test func transactionModeIsRefusedAtStartWithOneLineSayingWhy() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let bouncer = try await Blocking.run { try PgbouncerTestServer(cluster: cluster, mode: "transaction") }
        defer { bouncer.stop() }
        let url = bouncer.url(try await Blocking.run { try cluster.freshDatabase() })
        let message = try await Blocking.run { () -> String in
            do {
                _ = try Gateway.openStore(url, connections: 4)
                return "started"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message.contains("transaction or statement mode") && message.contains("pool_mode = session"), "\(message)")
        #expect(!message.contains("\n"))
    }
}
