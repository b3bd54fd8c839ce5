import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// The relays' leases on the webhook and stream queues (red-team M10), on SQLite and PostgreSQL alike: a lease
/// holds its events until it runs out unrenewed, then another holder takes them over and the first one's late
/// finish changes nothing; a failed post waits out its backoff with no holder, and is dropped after its
/// attempts.
@Suite(.timeLimit(.minutes(3)))
struct EventLeaseStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// Three recipients: delivered, 410, failed; webhook events and the stream's events raised for them.
    func runCampaign(_ store: SQLGatewayStore) throws {
        store.streamEvents([.sent, .deviceUnregistered, .failed])
        let deliveries = (1...3).map {
            NewDelivery(token: String(format: "%064x", 0xE100 + $0), apnsID: "a-\($0)", payload: Array("{}".utf8))
        }
        let spec = NotificationSpec(
            id: "n_1", app: "chat", kind: .notification, topic: "com.example.chat", createdAt: Self.t0)
        _ = try store.enqueue(spec, deliveries: deliveries, idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0).sorted { $0.apnsID < $1.apnsID }
        _ = try store.record(
            [
                CompletedDelivery(leased[0], outcome: .delivered, attempts: 1),
                CompletedDelivery(
                    leased[1], outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: Self.t0),
                    attempts: 1),
                CompletedDelivery(leased[2], outcome: .failed(attempts: 3, cause: "timeout"), attempts: 3),
            ], webhookEvents: true, now: Self.t0 + 1)
    }

    /// The lease's rules on one queue: `lease(limit, at)` leases it, the ids name the events.
    func checkTakeOver<Event>(
        _ store: SQLGatewayStore, expected: Int, lease: (Int, Date) throws -> LeasedEvents<Event>,
        ids: (LeasedEvents<Event>) -> [Int64]
    ) throws {
        let first = try lease(10, Self.t0 + 4)
        let all = ids(first)
        #expect(all.count == expected)
        #expect(ids(try lease(10, Self.t0 + 10)).isEmpty, "held by the first lease")
        #expect(try store.renewEventLease(first.lease, until: Self.t0 + 60) == expected)
        #expect(ids(try lease(10, Self.t0 + 40)).isEmpty, "renewed")
        // The first holder died: its lease ran out unrenewed and another takes the events over.
        let second = try lease(10, Self.t0 + 61)
        #expect(Set(ids(second)) == Set(all) && second.lease != first.lease)
        #expect(try store.finishEvents(all, lease: first.lease) == 0, "the dead holder's late finish")
        #expect(try store.renewEventLease(first.lease, until: Self.t0 + 500) == 0)
        // A failed post waits out its backoff with no holder; the rest is finished.
        #expect(
            try store.retryEvents([all[0]], lease: second.lease, at: Self.t0 + 100, failed: true, maximumAttempts: 2)
                .isEmpty)
        #expect(try store.finishEvents(Array(all.dropFirst()), lease: second.lease) == expected - 1)
        #expect(ids(try lease(10, Self.t0 + 99)).isEmpty, "backing off")
        let third = try lease(10, Self.t0 + 100)
        #expect(ids(third) == [all[0]] && third.failures[all[0]] == 1)
        // Given back unposted (a stopping gateway): no attempt is counted.
        #expect(
            try store.retryEvents([all[0]], lease: third.lease, at: Self.t0 + 100, failed: false, maximumAttempts: 2)
                .isEmpty)
        let fourth = try lease(10, Self.t0 + 100)
        #expect(fourth.failures[all[0]] == 1)
        #expect(
            try store.retryEvents([all[0]], lease: fourth.lease, at: Self.t0 + 200, failed: true, maximumAttempts: 2)
                == [all[0]], "out of attempts: dropped")
        #expect(ids(try lease(10, Self.t0 + 1000)).isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func aWebhookLeaseIsTakenOverWhenItsHolderDies(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try runCampaign(store)
        try checkTakeOver(
            store, expected: 2,
            lease: { limit, at in try store.leaseWebhookEvents(limit: limit, duration: 30, now: at) },
            ids: { $0.events.map(\.id) })
    }

    @Test(arguments: StoreBackend.allCases)
    func aStreamLeaseIsTakenOverWhenItsHolderDies(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try runCampaign(store)
        try checkTakeOver(
            store, expected: 3,
            lease: { limit, at in try store.leaseStreamEvents(limit: limit, duration: 30, now: at) },
            ids: { $0.events.map(\.rowID) })
    }

    /// Two processes on one PostgreSQL database lease disjoint events, and either finishes only its own.
    @Test func twoStoresOnOneDatabaseLeaseDisjointEvents() async throws {
        let (one, two) = try await Blocking.run { () throws -> (SQLGatewayStore, SQLGatewayStore) in
            let url = try TestPostgres.shared.freshDatabase()
            return (
                try SQLGatewayStore.postgres(url: url, connections: 2),
                try SQLGatewayStore.postgres(url: url, connections: 2)
            )
        }
        try runCampaign(one)
        let first = try one.leaseWebhookEvents(limit: 1, duration: 30, now: Self.t0 + 4)
        let second = try two.leaseWebhookEvents(limit: 10, duration: 30, now: Self.t0 + 4)
        #expect(first.events.count == 1 && second.events.count == 1)
        #expect(Set(first.events.map(\.id)).isDisjoint(with: second.events.map(\.id)))
        #expect(try two.finishEvents(first.events.map(\.id), lease: second.lease) == 0, "not its lease")
        #expect(try one.finishEvents(first.events.map(\.id), lease: first.lease) == 1)
    }
}
