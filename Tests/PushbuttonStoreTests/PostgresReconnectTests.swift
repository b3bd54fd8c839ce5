import Foundation
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// The PostgreSQL store after its server crashed and restarted, or its sessions were terminated (red-team H2,
/// issue 32): operations fail while the server is away (nothing acknowledged), and succeed again once it is
/// back, without reopening the store; a transaction cut in the middle is never committed in part.
@Suite(.timeLimit(.minutes(3)))
struct PostgresReconnectTests {
    static func notification(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "a", kind: .notification, topic: "t", createdAt: Date())
    }

    static func enqueue(_ store: SQLGatewayStore, _ id: String) throws(StoreError) {
        _ = try store.enqueue(
            notification(id), deliveries: [NewDelivery(token: "aa", apnsID: UUID().uuidString, payload: [1])],
            idempotency: nil, now: Date())
    }

    @Test func theStoreRecoversWhenItsServerRestartsAfterACrash() async throws {
        try await Blocking.run {
            // A server of its own: the crash would cut every other suite's sessions on the shared one.
            let cluster = try PostgresTestCluster()
            defer { cluster.stop() }
            let clock = ManualClock()
            let store = try SQLGatewayStore.postgres(
                url: try cluster.freshDatabase(), connections: 3, clock: AnyDurationClock(clock))
            try Self.enqueue(store, "n1")

            try cluster.crash()
            // Down: every operation fails at once (the gateway's 503), nothing is acknowledged.
            #expect(throws: StoreError.self) { try store.ping() }
            #expect(throws: StoreError.self) { try Self.enqueue(store, "n2") }
            try cluster.start()
            // Back, but the failed attempt's backoff has not run out on the injected clock: no attempt yet.
            let early = #expect(throws: StoreError.self) { try store.ping() }
            #expect(early?.message.contains("the next attempt to reconnect is in") == true)

            clock.advance(by: ReconnectBackoff.ceiling)
            try store.ping()
            // Every pooled connection works again, those idle through the outage without failing a statement.
            try store.pool.with { first throws(StoreError) in
                try store.pool.with { second throws(StoreError) in
                    try store.pool.with { third throws(StoreError) in
                        for connection in [first, second, third] {
                            #expect(try connection.query("SELECT 1") == [[.integer(1)]])
                            #expect((connection as? PostgresConnection)?.sessions == 2)
                        }
                    }
                }
            }
            try Self.enqueue(store, "n3")
            #expect(try store.notification(id: "n1", limit: 0, after: 0) != nil)
            #expect(try store.notification(id: "n2", limit: 0, after: 0) == nil)
            #expect(try store.notification(id: "n3", limit: 0, after: 0) != nil)
        }
    }

    @Test func aTerminatedSessionIsReplacedAndAnInterruptedTransactionIsNotCommitted() async throws {
        try await Blocking.run {
            let url = try TestPostgres.shared.freshDatabase()
            let database = PostgresTestCluster.database(in: url)
            let connection = try PostgresConnection(url: url)
            try connection.script("CREATE TABLE t (id BIGINT PRIMARY KEY)")
            try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])

            // Terminated while idle: the server's goodbye is read before the next statement is sent, so that
            // statement goes to a new session and succeeds.
            #expect(try TestPostgres.shared.terminateSessions(database: database) == 1)
            #expect(try connection.query("SELECT count(*) FROM t") == [[.integer(1)]])
            #expect(connection.sessions == 2)

            // Terminated inside a transaction: the rest of it fails, its COMMIT fails, nothing of it is stored.
            try connection.script(connection.beginTransaction)
            try connection.run("INSERT INTO t VALUES (?)", [.integer(2)])
            #expect(try TestPostgres.shared.terminateSessions(database: database) == 1)
            #expect(throws: StoreError.self) { try connection.run("INSERT INTO t VALUES (?)", [.integer(3)]) }
            let commit = #expect(throws: StoreError.self) { try connection.script("COMMIT") }
            #expect(commit?.message.contains("nothing of it was committed") == true)
            #expect(try connection.query("SELECT id FROM t ORDER BY id") == [[.integer(1)]])
            #expect(connection.sessions == 3)

            // The same through the transaction helper the store uses (a failed body rolls back).
            #expect(throws: StoreError.self) {
                try connection.transaction { () throws(StoreError) in
                    try connection.run("INSERT INTO t VALUES (?)", [.integer(4)])
                    #expect((try? TestPostgres.shared.terminateSessions(database: database)) == 1)
                    try connection.run("INSERT INTO t VALUES (?)", [.integer(5)])
                }
            }
            #expect(try connection.query("SELECT id FROM t ORDER BY id") == [[.integer(1)]])
        }
    }
}
