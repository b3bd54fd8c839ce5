import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Migrations 6 (the header columns leave `deliveries`) and 7 (campaign tallies, from the recipients already
/// there) on a store populated by the schema before them, on both databases.
@Suite(.timeLimit(.minutes(3)))
struct SlimSchemaMigrationTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    /// The migrations before these two.
    static let before = StoreMigrations.migrations.firstIndex { $0.name == "6-slim-deliveries" } ?? 0

    @Test(arguments: StoreBackend.allCases)
    func aPopulatedStoreKeepsItsRecipientsAndCountsThemFromTallies(_ backend: StoreBackend) async throws {
        #expect(Self.before == 5)
        let store = try await UpgradedStore.open(backend, before: Self.before, now: Self.t0, populate: Self.populate)
            .store
        let campaign = try #require(try store.notification(id: "c1", limit: 10, after: 0))
        #expect(campaign.counts == [.queued: 3, .leased: 1, .delivered: 2, .rejected: 1])
        #expect(campaign.deliveries.map(\.apnsID) == (1...7).map { "c1-\($0)" })
        #expect(campaign.spec.topic == "com.example.chat" && campaign.spec.pushType == "alert")
        #expect(try store.notification(id: "n1", limit: 0, after: 0)?.counts == [.queued: 1])
        // The header columns are gone from the recipients' rows.
        #expect(throws: StoreError.self) {
            try store.with { connection throws(StoreError) in try connection.query("SELECT topic FROM deliveries") }
        }
        // The queued and the expired lease are leased with the notification's headers and shared payload…
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0 + 100).sorted { $0.apnsID < $1.apnsID }
        #expect(leased.map(\.apnsID) == ["c1-1", "c1-2", "c1-3", "c1-4", "n1-1"])
        #expect(leased.allSatisfy { $0.topic == "com.example.chat" && $0.pushType == "alert" })
        #expect(leased.first { $0.apnsID == "n1-1" }?.priority == 5)
        #expect(leased.first { $0.apnsID == "c1-1" }?.payload == Array(#"{"aps":{"alert":"c1"}}"#.utf8))
        #expect(
            try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.leased: 4, .delivered: 2, .rejected: 1])
        // …and their outcomes move the tallies on.
        _ = try store.record(
            leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false,
            now: Self.t0 + 101)
        #expect(try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.delivered: 6, .rejected: 1])
        #expect(try store.notification(id: "n1", limit: 0, after: 0)?.counts == [.delivered: 1])
    }

    /// A campaign of seven recipients in four states and a notification of one, in the old schema's columns.
    static func populate(_ connection: any SQLConnection) throws {
        for (id, kind, priority) in [("c1", "campaign", SQLValue.null), ("n1", "notification", .integer(5))] {
            try connection.query(
                """
                INSERT INTO notifications (id, app, kind, state, topic, push_type, priority, expiration, collapse_id,
                    created_at, request)
                VALUES (?, 'chat', ?, 'open', 'com.example.chat', 'alert', ?, NULL, NULL, ?, ?)
                """, [.text(id), .text(kind), priority, .real(t0.timeIntervalSince1970), .blob(Array("{}".utf8))])
            try connection.query(
                "INSERT INTO shared_payloads (notification_id, payload) VALUES (?, ?)",
                [.text(id), .blob(Array(#"{"aps":{"alert":"\#(id)"}}"#.utf8))])
        }
        let states = ["queued", "queued", "queued", "leased", "delivered", "delivered", "rejected"]
        var rows: [(String, Int, String, SQLValue)] = states.enumerated().map { index, state in
            ("c1", index + 1, state, index == 3 ? .real(t0.timeIntervalSince1970 + 30) : .null)
        }
        rows.append(("n1", 1, "queued", .null))
        for (notification, number, state, leaseUntil) in rows {
            let final = ["delivered", "rejected"].contains(state)
            try connection.query(
                """
                INSERT INTO deliveries (notification_id, app, token, apns_id, topic, push_type, priority, expiration,
                    collapse_id, state, due_at, leases, lease_token, lease_until, attempts, status, reason, finished_at)
                VALUES (?, 'chat', ?, ?, 'com.example.chat', 'alert', NULL, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(notification), .text(String(format: "%064x", number)), .text("\(notification)-\(number)"),
                    .text(state), .real(t0.timeIntervalSince1970), .integer(state == "queued" ? 0 : 1),
                    state == "leased" ? .text("old-worker") : .null, leaseUntil, .integer(final ? 1 : 0),
                    state == "delivered" ? .integer(200) : state == "rejected" ? .integer(400) : .null,
                    state == "rejected" ? .text("BadDeviceToken") : .null,
                    final ? .real(t0.timeIntervalSince1970 + 1) : .null,
                ])
        }
    }
}
