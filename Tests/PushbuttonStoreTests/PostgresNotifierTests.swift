import Foundation
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: on PostgreSQL an intake's transaction carries no `NOTIFY` (PostgreSQL commits notifying
/// transactions one at a time, each holding a database-wide lock through its fsync, which made the intakes of
/// every process commit in single file): the store's ``PostgresNotifier`` tells the other processes after the
/// commit, in a transaction of its own, and an intake commits whether or not that notice can be sent.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PostgresNotifierTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func enqueue(_ id: String, token: Int, into store: SQLGatewayStore) throws -> EnqueueResult {
        let spec = NotificationSpec(id: id, app: "chat", kind: .notification, topic: "t", createdAt: t0)
        let delivery = NewDelivery(token: String(format: "%064x", token), apnsID: "a-\(id)", payload: Array("{}".utf8))
        return try store.enqueue(spec, deliveries: [delivery], idempotency: nil, now: t0)
    }

    @Test func theOtherProcessesHearOnlyWhatTheNotifierSends() async throws {
        let url = try await Blocking.run { try TestPostgres.shared.freshDatabase() }
        let told = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 2) }
        // A store whose notifier cannot connect (its database does not exist): its intakes' notices are lost.
        let untold = try await Blocking.run {
            SQLGatewayStore(
                pool: ConnectionPool([try PostgresConnection(url: url), try PostgresConnection(url: url)]),
                dialect: .postgres, location: "untold", notifier: PostgresNotifier(url: url + "_missing"))
        }
        let notifier = try #require(untold.notifier)
        let payloads = Locked<[String]>([])
        let changed = ChangeSignal()
        let listener = PostgresListener(
            url: url, channel: CommittedWork.channel, origin: "test", retry: .seconds(3600)
        ) { heard in
            payloads.withLock { $0 += heard }
            changed.notify()
        }
        defer { listener.stop() }
        await listener.waitUntil { $0.connections >= 1 }

        // The intake commits although its notice cannot be sent: the notice is no part of its transaction.
        #expect(try await Blocking.run { try Self.enqueue("untold", token: 1, into: untold) } == .created(id: "untold"))
        await notifier.waitUntil { $0.dropped >= 1 }
        #expect(notifier.status.transactions == 0)

        #expect(try await Blocking.run { try Self.enqueue("told", token: 2, into: told) } == .created(id: "told"))
        await changed.wait { !payloads.withLock { $0.isEmpty } }
        // Notices arrive in commit order: had the first intake's transaction notified, it would be heard first.
        #expect(payloads.withLock { $0 } == [told.committedWork.origin])
        // Listeners hear a notice at its commit, which can be before the notifier's thread has counted it.
        let toldNotifier = try #require(told.notifier)
        await toldNotifier.waitUntil { $0.transactions >= 1 }
        #expect(try await Blocking.run { try told.queueDepth() } == 2)
    }

    @Test func noticesAskedForWhileOneIsSentGoTogetherOnce() async throws {
        let url = try await Blocking.run { try TestPostgres.shared.freshDatabase() }
        let notifier = PostgresNotifier(url: url)
        defer { notifier.stop() }
        let heard = Locked<[String]>([])
        let changed = ChangeSignal()
        let listener = PostgresListener(url: url, channel: "pb_test", origin: "test", retry: .seconds(3600)) {
            payloads in
            heard.withLock { $0 += payloads }
            changed.notify()
        }
        defer { listener.stop() }
        await listener.waitUntil { $0.connections >= 1 }
        // The same notice asked for from many threads at once: each transaction sends it at most once.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 { group.addTask { notifier.notify("pb_test", payload: "same") } }
        }
        // Asked for after all of them: once it is heard, every earlier notice was sent (they commit in order).
        notifier.notify("pb_test", payload: "last")
        await changed.wait { heard.withLock { $0.contains("last") } }
        let count = heard.withLock { $0.count }
        await notifier.waitUntil { $0.sent >= count }
        let status = notifier.status
        #expect(status.asked == 201 && status.dropped == 0 && status.connections == 1)
        #expect(status.sent == count, "every notice sent was heard, once")
        #expect(status.transactions <= status.sent && status.sent <= 201)
        #expect(heard.withLock { $0.filter { $0 == "same" }.count } == status.sent - 1)
    }
}
