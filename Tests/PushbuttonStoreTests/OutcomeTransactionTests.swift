import Foundation
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// What commits with an outcome (a 410's deactivation, the webhook event), the campaign row's lock against a
/// concurrent cancel, and migrations started by several processes at once.
@Suite(.timeLimit(.minutes(3)))
struct OutcomeTransactionTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ number: Int) -> String { String(format: "%064x", number) }

    static func spec(_ id: String, kind: NotificationSpec.Kind = .notification) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: t0)
    }

    @Test(arguments: StoreBackend.allCases)
    func aDeadTokenAndItsWebhookEventCommitWithTheOutcome(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for number in 1...3 {
            _ = try store.register(
                DeviceRegistration(app: "chat", token: Self.token(number), registeredAt: Self.t0), now: Self.t0)
        }
        let deliveries = (1...4).map {
            NewDelivery(token: Self.token($0), apnsID: "a-\($0)", payload: Array("{}".utf8))
        }
        _ = try store.enqueue(Self.spec("n1"), deliveries: deliveries, idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0).sorted { $0.apnsID < $1.apnsID }
        #expect(leased.count == 4)
        var lost = leased[2]
        lost.leaseToken = "another-worker"
        let unregistered = Self.t0 + 5
        let results = [
            CompletedDelivery(
                leased[0], outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: unregistered),
                attempts: 1),
            CompletedDelivery(leased[1], outcome: .failed(attempts: 3, cause: "connection reset"), attempts: 3),
            // A lost lease: its 410 neither deactivates nor reports anything.
            CompletedDelivery(
                lost, outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: nil), attempts: 1),
            CompletedDelivery(leased[3], outcome: .delivered, attempts: 2),
        ]
        let outcome = try store.record(results, webhookEvents: true, now: Self.t0 + 10)
        #expect(outcome.recorded == [true, true, false, true])
        #expect(outcome.deactivated == ["chat": 1])
        #expect(outcome.webhookEvents == 2)

        let dead = try #require(try store.device(app: "chat", token: Self.token(1)))
        #expect(!dead.active)
        #expect(dead.inactiveSince == unregistered)
        #expect(dead.updatedAt == Self.t0 + 10, "the injected clock, not the wall clock")
        #expect(try store.device(app: "chat", token: Self.token(3))?.active == true)
        let record = try #require(try store.notification(id: "n1", limit: 10, after: 0))
        #expect(record.deliveries.first { $0.apnsID == "a-4" }?.attempts == 2, "attempts after a retry")
        #expect(record.deliveries.first { $0.apnsID == "a-2" }?.attempts == 3)

        let events = try store.claimWebhookEvents(limit: 10, duration: 60, now: Self.t0 + 11)
        #expect(events.map(\.kind) == [.deviceUnregistered, .notificationFailed])
        #expect(events.map(\.apnsID) == ["a-1", "a-2"])
        #expect(events[0].status == 410 && events[0].reason == "Unregistered")
        #expect(events[0].unregisteredAt == unregistered)
        #expect(events[0].at == Self.t0 + 10)
        #expect(events[1].status == nil && events[1].attempts == 3 && events[1].reason == "connection reset")
        #expect(events[1].unregisteredAt == nil)
        #expect(try store.claimWebhookEvents(limit: 10, duration: 60, now: Self.t0 + 12).isEmpty, "claimed")
        // A claim that expired (its process died before handing the events on) is taken over.
        #expect(try store.claimWebhookEvents(limit: 10, duration: 60, now: Self.t0 + 72).count == 2)
        try store.finishWebhookEvents(events.map(\.id))
        #expect(try store.claimWebhookEvents(limit: 10, duration: 60, now: Self.t0 + 500).isEmpty)

        // Without webhook events asked for, none are queued; the deactivation still happens.
        _ = try store.register(
            DeviceRegistration(app: "chat", token: Self.token(9), registeredAt: Self.t0), now: Self.t0)
        _ = try store.enqueue(
            Self.spec("n2"), deliveries: [NewDelivery(token: Self.token(9), apnsID: "b-9", payload: [])],
            idempotency: nil, now: Self.t0)
        let again = try store.lease(limit: 10, duration: 30, now: Self.t0 + 20)
        #expect(
            try store.record(
                again.map {
                    CompletedDelivery(
                        $0, outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: nil), attempts: 1)
                }, webhookEvents: false, now: Self.t0 + 21
            ).deactivated == ["chat": 1])
        #expect(try store.device(app: "chat", token: Self.token(9))?.inactiveSince == Self.t0 + 21)
        #expect(try store.claimWebhookEvents(limit: 10, duration: 60, now: Self.t0 + 1000).isEmpty)
    }

    /// A cancel that comes while a page is being appended either waits for the page and cancels it too, or
    /// comes first and the page is refused: never a queued recipient in a cancelled campaign.
    @Test(arguments: StoreBackend.allCases)
    func aCancelDuringAnAppendLeavesNothingQueued(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(Self.spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        let started = DispatchSemaphore(value: 0)
        let appending = Task.detached {
            try await Blocking.run {
                try store.append(campaign: "c1", now: Self.t0) {
                    (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
                    for index in 0..<600 {
                        try emit(NewDelivery(token: Self.token(index + 1), apnsID: "c-\(index)", payload: []))
                        if index == 0 { started.signal() }
                        // Sleeps by design: a slow append holding its transaction open while the cancel comes (which waits on `started`).
                        if index == 0 || index == 599 { Thread.sleep(forTimeInterval: 0.3) }
                    }
                }
            }
        }
        try await Blocking.run { started.wait() }
        let cancelled = try await Blocking.run { try store.cancel(campaign: "c1", now: Self.t0 + 1) }
        let appended = try await appending.value
        #expect(cancelled?.state == "cancelled")
        let record = try #require(try store.notification(id: "c1", limit: 0, after: 0))
        #expect(record.counts[.queued] == nil, "\(record.counts), appended \(String(describing: appended))")
        #expect(appended == nil || record.counts[.cancelled] == appended)
    }

    /// Processes starting at once on a new database: one migrates, the others wait and find it done.
    @Test func concurrentStartsMigratePostgreSQLOnce() async throws {
        let url = try await Blocking.run { try TestPostgres.shared.freshDatabase() }
        let opened = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    _ = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 1) }
                    return 1
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(opened == 4)
        let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 1) }
        try store.ping()
    }
}
