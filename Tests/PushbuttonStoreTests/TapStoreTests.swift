import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// The tap events and statistics, on SQLite and PostgreSQL alike.
@Suite(.timeLimit(.minutes(3)))
struct TapStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ number: Int) -> String { String(format: "%064x", number) }

    func tap(
        _ event: String, notification: String, token: Int = 1, response: TapRecord.Response = .button,
        button: String? = "like", foreground: Bool = false, latency: Int64? = nil, at: Date = t0 + 60,
        app: String = "chat", category: String = "message"
    ) -> TapRecord {
        TapRecord(
            app: app, eventID: event, token: Self.token(token), notificationID: notification, category: category,
            response: response, button: response == .button ? button : nil, foreground: foreground,
            latencyMilliseconds: latency, respondedAt: at)
    }

    /// A notification of `count` recipients, all delivered at `t0 + 10` except the `rejected` last ones (410).
    func send(_ store: SQLGatewayStore, _ id: String, count: Int, rejected: Int = 0, category: String = "message")
        throws
    {
        let request = Array(#"{"category": "\#(category)", "body": "Hi"}"#.utf8)
        let spec = NotificationSpec(
            id: id, app: "chat", kind: .notification, topic: "com.example.chat", createdAt: Self.t0, request: request)
        let deliveries = (0..<count).map {
            NewDelivery(token: Self.token($0 + 1), apnsID: "\(id)-\($0)", payload: Array("{}".utf8))
        }
        _ = try store.enqueue(spec, deliveries: deliveries, idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: count, duration: 30, now: Self.t0).sorted { $0.id < $1.id }
        for (index, delivery) in leased.enumerated() {
            let outcome: DeliveryOutcome =
                index >= count - rejected
                ? .rejected(status: 410, reason: "Unregistered", unregisteredAt: Self.t0) : .delivered
            try store.complete(delivery, outcome: outcome, attempts: 1, now: Self.t0 + 10)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anEventIDCountsOnceAcrossAndWithinBatches(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try send(store, "n1", count: 2)
        let first = try store.record(
            taps: [tap("e1", notification: "n1"), tap("e1", notification: "n1")], now: Self.t0)
        #expect(first == TapBatchResult(accepted: 1, duplicates: 1))
        let again = try store.record(
            taps: [tap("e1", notification: "n1"), tap("e2", notification: "n1", token: 2)], now: Self.t0)
        #expect(again == TapBatchResult(accepted: 1, duplicates: 1))
        // Another app's event of the same id is its own.
        #expect(try store.record(taps: [tap("e1", notification: "x", app: "other")], now: Self.t0).accepted == 1)
        let statistics = try store.statistics(StatsQuery(app: "chat"))
        #expect(statistics.buttons == ["like": 2])
        #expect(statistics.responses == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func statisticsCountOutcomesAndJoinedTapsByScopeAndWindow(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try send(store, "n1", count: 5, rejected: 1)
        try send(store, "n2", count: 3, category: "invite")
        let taps = [
            tap("a", notification: "n1", token: 1, button: "like", latency: 1000),
            tap("b", notification: "n1", token: 2, button: "like", foreground: true, latency: 3000),
            tap("c", notification: "n1", token: 3, button: "open", foreground: true, latency: 2000),
            tap(
                "d", notification: "n1", token: 4, response: .body, foreground: true, latency: 4000, at: Self.t0 + 7200),
            tap("e", notification: "n1", token: 5, response: .dismiss, latency: 100),
            tap("f", notification: "n2", token: 1, button: "accept", latency: 500),
            // Not joined: no such notification (yet).
            tap("g", notification: "n9", token: 1, button: "like", latency: 10),
        ]
        #expect(try store.record(taps: taps, now: Self.t0).accepted == 7)

        let one = try store.statistics(StatsQuery(app: "chat", scope: .notification("n1")))
        #expect(one.deliveries == [.delivered: 4, .rejected: 1])
        #expect(one.deadTokens == 1)
        #expect(one.buttons == ["like": 2, "open": 1])
        #expect(one.body == 1)
        #expect(one.dismissals == 1)
        #expect(one.responses == 5)
        #expect(one.foreground == 3)
        #expect(one.background == 2)
        // Latencies of taps (not the dismissal): 1000, 2000, 3000, 4000.
        #expect(one.medianLatencyMilliseconds == 2500)
        #expect(one.p90LatencyMilliseconds == 4000)

        let app = try store.statistics(StatsQuery(app: "chat"))
        #expect(app.deliveries == [.delivered: 7, .rejected: 1])
        #expect(app.responses == 6)
        #expect(app.medianLatencyMilliseconds == 2000)

        // Categories are noted from the stored requests, then select their notifications.
        #expect(try store.statistics(StatsQuery(app: "chat", scope: .category("invite"))).deliveries.isEmpty)
        let noted = try store.categorize(app: "chat", limit: 100) { _, request in
            (try? JSONParser.parse(request))?.objectValue?["category"]?.stringValue
        }
        #expect(noted == 2)
        #expect(try store.categorize(app: "chat", limit: 100) { _, _ in "x" } == 0)
        let invite = try store.statistics(StatsQuery(app: "chat", scope: .category("invite")))
        #expect(invite.deliveries == [.delivered: 3])
        #expect(invite.buttons == ["accept": 1])
        #expect(invite.p90LatencyMilliseconds == 500)

        // A window: outcomes finished and taps made within it.
        let early = try store.statistics(
            StatsQuery(app: "chat", scope: .notification("n1"), from: Self.t0, to: Self.t0 + 3600))
        #expect(early.deliveries == [.delivered: 4, .rejected: 1])
        #expect(early.body == 0)
        #expect(early.responses == 4)
        let late = try store.statistics(StatsQuery(app: "chat", scope: .notification("n1"), from: Self.t0 + 3600))
        #expect(late.deliveries.isEmpty)
        #expect(late.body == 1)
        #expect(late.medianLatencyMilliseconds == 4000)

        // The late tap joins once its notification exists.
        try send(store, "n9", count: 1)
        #expect(try store.statistics(StatsQuery(app: "chat", scope: .notification("n9"))).buttons == ["like": 1])
        #expect(try store.statistics(StatsQuery(app: "other")).responses == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func aDeviceAddsAndRemovesTags(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let token = Self.token(1)
        #expect(try store.updateTags(app: "chat", token: token, add: ["x"], remove: [], now: Self.t0) == nil)
        _ = try store.register(
            DeviceRegistration(app: "chat", token: token, tags: ["beta", "fr"], registeredAt: Self.t0), now: Self.t0)
        let updated = try #require(
            try store.updateTags(app: "chat", token: token, add: ["vip", "beta"], remove: ["fr"], now: Self.t0 + 1))
        #expect(updated.registration.tags == ["beta", "vip"])
        #expect(try store.tokens(app: "chat", audience: .tag("vip"), limit: 10) == [token])
        #expect(try store.tokens(app: "chat", audience: .tag("fr"), limit: 10).isEmpty)
    }
}
