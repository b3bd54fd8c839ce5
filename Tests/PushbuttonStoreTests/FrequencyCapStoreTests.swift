import Foundation
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// Issue 35's frequency cap in the store, on SQLite and PostgreSQL: decided when a recipient is leased, over
/// the sends recorded per device in the window before the lease's `now` (the injected clock), exactly once
/// across processes.
@Suite(.timeLimit(.minutes(5)))
struct FrequencyCapStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let cap = FrequencyCap(max: 2, window: 24 * 3600)

    static func token(_ index: Int) -> String { String(format: "%064x", index + 1) }

    func spec(_ id: String, kind: NotificationSpec.Kind = .campaign, held: Bool = true, cap: FrequencyCap? = cap)
        -> NotificationSpec
    {
        var spec = NotificationSpec(
            id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: Self.t0, sendAt: nil)
        spec.frequencyCap = cap
        spec.heldToFrequencyCap = held
        return spec
    }

    func deliveries(_ tokens: [Int], prefix: String) -> [NewDelivery] {
        tokens.map { NewDelivery(token: Self.token($0), apnsID: "\(prefix)-\($0)", payload: Array("{}".utf8)) }
    }

    /// Enqueues `id` to `tokens` at `now`, leases everything due and records it delivered; the apns-ids sent.
    @discardableResult
    func send(
        _ store: SQLGatewayStore, _ spec: NotificationSpec, to tokens: [Int], now: Date
    ) throws -> [String] {
        var spec = spec
        spec.createdAt = now
        _ = try store.enqueue(spec, deliveries: deliveries(tokens, prefix: spec.id), idempotency: nil, now: now)
        let leased = try store.lease(limit: 1000, duration: 60, now: now)
        _ = try store.complete(leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: now)
        return leased.map(\.apnsID).sorted()
    }

    @Test(arguments: StoreBackend.allCases)
    func recipientsOverTheCapAreSkippedAndUnderItSent(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run {
            // Device 0 had two pushes, device 1 one, device 2 none.
            try send(store, spec("c1"), to: [0, 1], now: Self.t0)
            try send(store, spec("c2"), to: [0], now: Self.t0 + 60)
            let sent = try send(store, spec("c3"), to: [0, 1, 2], now: Self.t0 + 120)
            #expect(sent == ["c3-1", "c3-2"])
            let record = try #require(try store.notification(id: "c3", limit: 10, after: 0))
            #expect(record.counts[.skipped] == 1)
            #expect(record.counts[.delivered] == 2)
            #expect(record.skippedReasons == [FrequencyCap.skippedReason: 1])
            let skipped = try #require(record.deliveries.first { $0.token == Self.token(0) })
            #expect(skipped.state == .skipped)
            #expect(skipped.reason == FrequencyCap.skippedReason)
            // Its queue is empty: nothing is left held until the lease runs out.
            #expect(try store.nextDue(now: Self.t0 + 120) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func theWindowSlidesWithTheInjectedClock(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run {
            try send(store, spec("c1"), to: [0], now: Self.t0)
            try send(store, spec("c2"), to: [0], now: Self.t0 + 3600)
            // 24 h after the first, less a second: both still count.
            #expect(try send(store, spec("c3"), to: [0], now: Self.t0 + 86_399).isEmpty)
            // Once the first falls out of the window, one more.
            #expect(try send(store, spec("c4"), to: [0], now: Self.t0 + 86_401) == ["c4-0"])
            #expect(try send(store, spec("c5"), to: [0], now: Self.t0 + 86_402).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func singleNotificationsAreExemptUnlessTheyOptInButCount(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run {
            // Two transactional sends fill the cap and are sent whatever it says.
            try send(store, spec("n1", kind: .notification, held: false), to: [0], now: Self.t0)
            try send(store, spec("n2", kind: .notification, held: false), to: [0], now: Self.t0 + 1)
            #expect(
                try send(store, spec("n3", kind: .notification, held: false), to: [0], now: Self.t0 + 2) == ["n3-0"])
            // A campaign is over it; a single notification that opts in too.
            #expect(try send(store, spec("c1"), to: [0], now: Self.t0 + 3).isEmpty)
            #expect(try send(store, spec("n4", kind: .notification, held: true), to: [0], now: Self.t0 + 4).isEmpty)
            let single = try #require(try store.notification(id: "n4", limit: 10, after: 0))
            #expect(single.skippedReasons == [FrequencyCap.skippedReason: 1])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func rejectedSendsDoNotCountAndAppsWithoutACapAreNotRecorded(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run {
            var first = spec("c1")
            first.createdAt = Self.t0
            _ = try store.enqueue(first, deliveries: deliveries([0], prefix: "c1"), idempotency: nil, now: Self.t0)
            let leased = try store.lease(limit: 10, duration: 60, now: Self.t0)
            _ = try store.complete(
                leased.map {
                    CompletedDelivery(
                        $0, outcome: .rejected(status: 400, reason: "BadDeviceToken", unregisteredAt: nil), attempts: 1)
                }, now: Self.t0)
            try send(store, spec("c2"), to: [0], now: Self.t0 + 1)
            #expect(
                try send(store, spec("c3"), to: [0], now: Self.t0 + 2) == ["c3-0"], "the rejected one did not count")
            // An app without a cap: nothing recorded, nothing skipped.
            for index in 0..<4 {
                #expect(try send(store, spec("u\(index)", cap: nil), to: [0], now: Self.t0 + 10) == ["u\(index)-0"])
            }
        }
    }

    /// A cap of 2 and ten campaigns to the same 200 devices, leased by two processes at once: no device is
    /// sent more than 2, and every recipient is sent or skipped.
    @Test func twoProcessesDoNotExceedTheCap() async throws {
        let (first, second) = try await StoreBackend.postgres.twoProcesses()
        let devices = Array(0..<200)
        try await Blocking.run {
            for index in 0..<10 {
                var campaign = spec("c\(index)")
                campaign.createdAt = Self.t0
                _ = try first.enqueue(
                    campaign, deliveries: deliveries(devices, prefix: "c\(index)"), idempotency: nil, now: Self.t0)
            }
        }
        async let a = Blocking.run { try Self.drain(first, now: Self.t0 + 1) }
        async let b = Blocking.run { try Self.drain(second, now: Self.t0 + 1) }
        let (leasedA, leasedB) = try await (a, b)
        var perDevice: [String: Int] = [:]
        for delivery in leasedA + leasedB { perDevice[delivery.token, default: 0] += 1 }
        #expect(perDevice.count == 200)
        #expect(perDevice.values.allSatisfy { $0 == 2 }, "sends per device: \(Set(perDevice.values))")
        let skipped = try await Blocking.run { () throws -> Int in
            try (0..<10).reduce(0) { sum, index in
                sum + (try first.notification(id: "c\(index)", limit: 0, after: 0)?.counts[.skipped] ?? 0)
            }
        }
        #expect(skipped == 10 * 200 - 400)
    }

    static func drain(_ store: SQLGatewayStore, now: Date) throws -> [LeasedDelivery] {
        var all: [LeasedDelivery] = []
        while true {
            let leased = try store.lease(limit: 100, duration: 600, now: now)
            if leased.isEmpty {
                // Another process may still hold batches it skips: done once nothing is due.
                if try store.nextDue(now: now).map({ $0 > now }) ?? true { return all }
                continue
            }
            all += leased
        }
    }
}
