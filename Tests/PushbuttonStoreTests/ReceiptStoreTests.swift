import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// Display receipts on SQLite and PostgreSQL alike: an event id counts once, across and within batches, and the
/// count joins the notifications in scope (campaign, category) as the taps do.
@Suite(.timeLimit(.minutes(3)))
struct ReceiptStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func receipt(_ event: String, notification: String, token: Int = 1, app: String = "chat", at: Date = t0 + 20)
        -> ReceiptRecord
    {
        ReceiptRecord(
            app: app, eventID: event, token: TapStoreTests.token(token), notificationID: notification,
            campaignID: nil, variant: "b", receivedAt: at)
    }

    @Test(arguments: StoreBackend.allCases)
    func anEventIDCountsOnceAndTheCountJoinsTheScope(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try TapStoreTests().send(store, "n1", count: 3)
        try TapStoreTests().send(store, "n2", count: 2, category: "invite")
        let first = try store.record(
            receipts: [receipt("r1", notification: "n1"), receipt("r1", notification: "n1")], now: Self.t0)
        #expect(first == TapBatchResult(accepted: 1, duplicates: 1))
        let again = try store.record(
            receipts: [
                receipt("r1", notification: "n1"), receipt("r2", notification: "n1", token: 2),
                receipt("r3", notification: "n2"), receipt("r9", notification: "n_unknown"),
                receipt("r1", notification: "n1", app: "other"),
            ], now: Self.t0)
        #expect(again == TapBatchResult(accepted: 4, duplicates: 1))
        #expect(try store.receivedCount(StatsQuery(app: "chat")) == 3)
        #expect(try store.receivedCount(StatsQuery(app: "chat", scope: .notification("n1"))) == 2)
        #expect(try store.receivedCount(StatsQuery(app: "chat", from: Self.t0 + 30)) == 0)
        _ = try store.categorize(app: "chat", limit: 10) { _, request in
            (try? JSONParser.parse(request))?.objectValue?["category"]?.stringValue
        }
        #expect(try store.receivedCount(StatsQuery(app: "chat", scope: .category("invite"))) == 1)
    }
}
