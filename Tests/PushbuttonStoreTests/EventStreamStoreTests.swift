import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// The event stream's rows (issue 35), on SQLite and PostgreSQL alike: raised with the outcomes they report
/// (in their transaction), a campaign's end once, taps once per device event id, claimed and finished; and
/// nothing at all while the stream is off.
@Suite(.timeLimit(.minutes(3)))
struct EventStreamStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ number: Int) -> String { String(format: "%064x", 0xE000 + number) }

    /// A campaign of three recipients, leased, then its outcomes: delivered, 410, failed.
    func runCampaign(_ store: SQLGatewayStore) throws {
        let deliveries = (1...3).map {
            NewDelivery(token: Self.token($0), apnsID: "a-\($0)", payload: Array("{}".utf8))
        }
        let spec = NotificationSpec(
            id: "c_1", app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: Self.t0)
        _ = try store.enqueue(spec, deliveries: deliveries, idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0).sorted { $0.apnsID < $1.apnsID }
        #expect(leased.count == 3)
        _ = try store.record(
            [
                CompletedDelivery(leased[0], outcome: .delivered, attempts: 1),
                CompletedDelivery(
                    leased[1], outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: Self.t0 + 1),
                    attempts: 1),
            ], webhookEvents: false, now: Self.t0 + 2)
        _ = try store.record(
            [CompletedDelivery(leased[2], outcome: .failed(attempts: 3, cause: "timeout"), attempts: 3)],
            webhookEvents: false, now: Self.t0 + 3)
    }

    @Test(arguments: StoreBackend.allCases)
    func outcomesAndACampaignsEndAreStreamed(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        store.streamEvents(Set(StreamEvent.Kind.allCases))
        try runCampaign(store)
        let events = try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 4)
        #expect(
            events.map(\.kind) == [.sent, .rejected, .deviceUnregistered, .failed, .campaignFinished],
            "\(events.map(\.kind))")
        #expect(events[0].id == "notification.sent:a-1")
        #expect(events[0].fields["campaign_id"] == "c_1")
        #expect(events[0].fields["token"] == .string(Self.token(1)))
        #expect(events[1].fields["status"] == 410)
        #expect(events[2].fields["unregistered_at"] == .integer(Int64((Self.t0 + 1).timeIntervalSince1970 * 1000)))
        #expect(events[3].fields["attempts"] == 3)
        #expect(events.allSatisfy { $0.app == "chat" })
        let finished = events[4]
        #expect(finished.id == "campaign.finished:c_1")
        #expect(finished.at == Self.t0 + 3)
        let counts = finished.fields["counts"]?.objectValue
        #expect(counts?["delivered"] == 1 && counts?["rejected"] == 1 && counts?["failed"] == 1)
        // Claimed: not claimed again until the claim expires; finished: gone.
        #expect(try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 5).isEmpty)
        #expect(try store.claimStreamEvents(limit: 2, duration: 60, now: Self.t0 + 100).count == 2)
        try store.finishStreamEvents(events.map(\.rowID))
        #expect(try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 1000).isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func onlyTheConfiguredTypesAreRaised(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try runCampaign(store)
        #expect(try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 4).isEmpty, "off by default")
        let other = try await backend.makeStore()
        other.streamEvents([.failed, .tap])
        try runCampaign(other)
        let tap = TapRecord(
            app: "chat", eventID: "e-1", token: Self.token(1), notificationID: "c_1", campaignID: "c_1",
            category: "order", response: .button, button: "track", foreground: false, latencyMilliseconds: 1200,
            respondedAt: Self.t0 + 5)
        try other.raiseTapEvents([tap], now: Self.t0 + 6)
        try other.raiseTapEvents([tap], now: Self.t0 + 7)  // a retried batch
        let events = try other.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 8)
        #expect(events.map(\.kind) == [.failed, .tap])
        #expect(events[1].id == "tap:e-1")
        #expect(events[1].fields["button"] == "track" && events[1].fields["latency_ms"] == 1200)
        #expect(events[1].fields["campaign_id"] == "c_1" && events[1].fields["category"] == "order")
    }

    /// A display receipt raises `notification.delivered` once per notification and device: not for a repeated
    /// receipt (same event id, or another id for the same pair, in one batch or a later one), not for a
    /// notification the app did not send, and not while the type is off.
    @Test(arguments: StoreBackend.allCases)
    func displayReceiptsRaiseDeliveredOncePerNotificationAndDevice(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try runCampaign(store)
        func receipt(_ event: String, token: Int, notification: String = "c_1", app: String = "chat") -> ReceiptRecord {
            ReceiptRecord(
                app: app, eventID: event, token: Self.token(token), notificationID: notification, campaignID: "c_1",
                variant: "b", receivedAt: Self.t0 + 10)
        }
        _ = try store.record(receipts: [receipt("off", token: 3)], now: Self.t0 + 10)
        #expect(try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 11).isEmpty, "off")
        store.streamEvents([.delivered])
        _ = try store.record(
            receipts: [
                receipt("r1", token: 1), receipt("r1", token: 1), receipt("r1b", token: 1),
                receipt("r2", token: 2), receipt("x", token: 2, notification: "c_unknown"),
                receipt("r1", token: 1, app: "other"),
            ], now: Self.t0 + 12)
        _ = try store.record(receipts: [receipt("r0", token: 1), receipt("r3", token: 3)], now: Self.t0 + 13)
        let events = try store.claimStreamEvents(limit: 100, duration: 60, now: Self.t0 + 14)
        #expect(events.map(\.kind) == [.delivered, .delivered], "\(events)")
        #expect(events.map { $0.fields["token"] } == [.string(Self.token(1)), .string(Self.token(2))])
        #expect(events[0].id == "notification.delivered:chat:c_1:\(Self.token(1))")
        #expect(events[0].app == "chat")
        #expect(events[0].fields["notification_id"] == "c_1" && events[0].fields["campaign_id"] == "c_1")
        #expect(events[0].fields["variant"] == "b")
        #expect(events[0].fields["received_at"] == .integer(Int64((Self.t0 + 10).timeIntervalSince1970 * 1000)))
    }
}
