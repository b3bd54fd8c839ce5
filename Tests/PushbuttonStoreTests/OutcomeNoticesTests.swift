import Foundation
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: on PostgreSQL the transaction that records outcomes notifies the other processes of the
/// notifications a request waits on (`wakesWaiters`), and of no others, in payloads PostgreSQL accepts.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct OutcomeNoticesTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func payloadsStayUnderTheLimitAndKeepEveryID() {
        let ids = (0..<2_000).map { "n_\($0)_" + String(repeating: "x", count: 20) }
        let payloads = OutcomeNotices.payloads(origin: "me", ids: ids)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= OutcomeNotices.payloadBytes && $0.hasPrefix("me ") })
        #expect(payloads.flatMap { $0.split(separator: " ").dropFirst().map(String.init) } == ids)
        #expect(OutcomeNotices.payloads(origin: "me", ids: []).isEmpty)
    }

    @Test func anotherProcessHearsTheWaitedNotificationsOnly() async throws {
        let url = try await Blocking.run { try TestPostgres.shared.freshDatabase() }
        let here = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 2) }
        let there = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 2) }
        let heard = Locked<[[String]?]>([])
        let changed = ChangeSignal()
        let observation = here.observeRecordedOutcomes { ids in
            heard.withLock { $0.append(ids) }
            changed.notify()
        }
        defer { observation.cancel() }
        let listener = try #require(here.outcomeNotices.listener)
        await listener.waitUntil { $0.connections >= 1 }
        try await Blocking.run {
            var waited = NotificationSpec(
                id: "waited", app: "chat", kind: .notification, topic: "t", createdAt: Self.t0)
            waited.wakesWaiters = true
            let plain = NotificationSpec(id: "plain", app: "chat", kind: .notification, topic: "t", createdAt: Self.t0)
            for (index, spec) in [waited, plain].enumerated() {
                let delivery = NewDelivery(
                    token: String(format: "%064x", index + 1), apnsID: "a-\(index)", payload: Array("{}".utf8))
                _ = try there.enqueue(spec, deliveries: [delivery], idempotency: nil, now: Self.t0)
            }
            let leased = try there.lease(limit: 10, duration: 30, now: Self.t0)
            #expect(leased.count == 2)
            // Both outcomes in one transaction: one NOTIFY, naming the waited notification alone.
            try there.complete(leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: Self.t0)
        }
        await changed.wait { heard.withLock { $0.contains { $0 != nil } } }
        let notices = heard.withLock { $0 }
        // nil: the listener's connect (it may have connected after the observation began).
        #expect(notices.compactMap { $0 } == [["waited"]])
        #expect(listener.status.notices == 1)
    }
}
