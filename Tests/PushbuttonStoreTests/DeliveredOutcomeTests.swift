import Foundation
import PushbuttonStore
import Testing

/// Delivered outcomes are recorded by id, one statement per lease and attempt count: a batch that lost some
/// of its leases to another worker still records exactly the rows it holds, and nothing of the others.
@Suite(.timeLimit(.minutes(3)))
struct DeliveredOutcomeTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String, kind: NotificationSpec.Kind) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: t0)
    }

    static func deliveries(_ count: Int) -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(token: String(format: "%064x", index + 1), apnsID: "d-\(index)", payload: Array("{}".utf8))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aBatchThatLostSomeLeasesRecordsOnlyTheRowsItHolds(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(Self.spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: Self.deliveries(6), now: Self.t0) == 6)
        let first = try store.lease(limit: 10, duration: 30, now: Self.t0)
        #expect(first.count == 6)
        // The first lease runs out; another worker takes two of its rows over.
        let second = try store.lease(limit: 2, duration: 30, now: Self.t0 + 31)
        #expect(second.count == 2)
        let taken = Set(second.map(\.id))
        // The first worker comes back late with every row delivered, one of them after a retry.
        var late = first.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }
        let retried = try #require(first.lastIndex { !taken.contains($0.id) })
        late[retried].attempts = 2
        let recorded = try store.complete(late, now: Self.t0 + 32)
        #expect(recorded == first.map { !taken.contains($0.id) })
        // The rows it lost stay the other worker's: its outcomes are recorded, once.
        let theirs = try store.complete(
            second.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: Self.t0 + 33)
        #expect(theirs == [true, true])
        let record = try #require(try store.notification(id: "c1", limit: 10, after: 0))
        #expect(record.counts == [.delivered: 6])
        #expect(record.deliveries.filter { $0.attempts == 2 }.map(\.apnsID) == [first[retried].apnsID])
        // Recorded once: the same outcomes again change nothing.
        #expect(try store.complete(late, now: Self.t0 + 34) == Array(repeating: false, count: 6))
    }
}
