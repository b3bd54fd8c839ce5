import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// The queue as batches of row ranges (`queue_batches`): split by a lease's limit, removed with their last
/// outcome, dropped by a cancel; a recipient's row written once, by its outcome, without index changes (HOT
/// on PostgreSQL); and the migration that makes batches of a populated queue.
@Suite(.timeLimit(.minutes(3)))
struct QueueBatchesTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String, kind: NotificationSpec.Kind) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: t0)
    }

    static func deliveries(_ count: Int, prefix: String) -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)", payload: Array("{}".utf8))
        }
    }

    static func batches(_ store: SQLGatewayStore) throws -> [[SQLValue]] {
        try store.with { connection throws(StoreError) in
            try connection.query(
                "SELECT notification_id, last_id - first_id + 1, lease_token FROM queue_batches ORDER BY first_id")
        }
    }

    /// An SQLite page's batches: from its consecutive ids when nothing in it was skipped, else read back
    /// (the skipped recipient in no batch); the same ranges either way.
    @Test func anSQLitePageIsBatchedByItsIdsOrReadBackWhenARecipientIsSkipped() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        _ = try store.enqueue(Self.spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        let count = 2 * QueueBatches.rows + 200
        let page = Self.deliveries(count, prefix: "c")
        #expect(try store.append(campaign: "c1", deliveries: page, now: Self.t0) == count)
        let ranges = {
            try store.with { connection throws(StoreError) in
                try connection.query("SELECT first_id, last_id, size FROM queue_batches ORDER BY first_id")
            }.map { $0.compactMap(\.integer) }
        }
        #expect(try ranges() == [[1, 500, 500], [501, 1000, 500], [1001, 1200, 200]])

        // A dead device's recipient is skipped at intake and left out of the batches of the next page.
        _ = try store.register(
            DeviceRegistration(app: "chat", token: page[10].token, registeredAt: Self.t0), now: Self.t0)
        #expect(try store.markInactive(app: "chat", token: page[10].token, since: Self.t0 + 1, now: Self.t0 + 1))
        let second = Self.deliveries(QueueBatches.rows + 2, prefix: "d")
        #expect(try store.append(campaign: "c1", deliveries: second, now: Self.t0 + 2) == second.count)
        #expect(try ranges().suffix(2) == [[1201, 1701, 500], [1702, 1702, 1]], "row 1211 skipped, in no batch")
        #expect(try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.queued: count + 501, .skipped: 1])
        // The pages went in without the notification_id check; the connection checks again after them.
        let checks = try store.with { connection throws(StoreError) in try connection.query("PRAGMA foreign_keys") }
        #expect(checks.first?.first?.integer == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func leasesSplitBatchesAndTheLastOutcomeRemovesThem(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(Self.spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        let count = QueueBatches.rows + 200
        #expect(
            try store.append(campaign: "c1", deliveries: Self.deliveries(count, prefix: "c"), now: Self.t0) == count)
        // One page: a full batch and the rest.
        #expect(try Self.batches(store).map { $0[1].integer } == [Int64(QueueBatches.rows), 200])
        #expect(try store.queueDepth() == count)

        // A lease smaller than a batch splits it: what it took is held, the rest is free and leased next.
        let first = try store.lease(limit: 150, duration: 30, now: Self.t0)
        #expect(first.map(\.apnsID) == (0..<150).map { "c-\($0)" })
        let second = try store.lease(limit: 1_000, duration: 30, now: Self.t0)
        #expect(second.map(\.apnsID).sorted() == (150..<count).map { "c-\($0)" }.sorted())
        #expect(try store.lease(limit: 1_000, duration: 30, now: Self.t0 + 1).isEmpty)
        #expect(try Self.batches(store).count == 3)
        #expect(try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.leased: count])

        // The first lease's outcomes remove its batch; the second's one of two rows left keeps its own.
        _ = try store.record(
            first.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false,
            now: Self.t0 + 2)
        _ = try store.record(
            second.dropLast().map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false,
            now: Self.t0 + 2)
        #expect(try Self.batches(store).count == 1)
        #expect(try store.queueDepth() == 1)
        _ = try store.record(
            [
                CompletedDelivery(
                    try #require(second.last), outcome: .failed(attempts: 1, cause: "timeout"), attempts: 1)
            ],
            webhookEvents: false, now: Self.t0 + 3)
        #expect(try Self.batches(store).isEmpty)
        #expect(try store.queueDepth() == 0)
        #expect(try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.delivered: count - 1, .failed: 1])
    }

    @Test(arguments: StoreBackend.allCases)
    func aReleasedBatchIsDueAgainAndACancelDropsTheUnleased(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(Self.spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        _ = try store.append(campaign: "c1", deliveries: Self.deliveries(10, prefix: "a"), now: Self.t0)
        _ = try store.append(campaign: "c1", deliveries: Self.deliveries(10, prefix: "b"), now: Self.t0)
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0)
        #expect(leased.map(\.apnsID) == (0..<10).map { "a-\($0)" })
        // Released: due again at once, with the same apns-ids and one more lease each.
        try store.release(leased)
        #expect(try Self.batches(store).allSatisfy { $0[2] == .null })
        let again = try store.lease(limit: 10, duration: 30, now: Self.t0 + 1)
        #expect(again.map(\.apnsID) == leased.map(\.apnsID))
        #expect(again.allSatisfy { $0.leases == 2 })
        // Cancelled: the never-leased page is cancelled and its batch dropped; the leased one is still sent.
        #expect(try store.cancel(campaign: "c1", now: Self.t0 + 2)?.counts == [.leased: 10, .cancelled: 10])
        #expect(try Self.batches(store).count == 1)
        #expect(try store.queueDepth() == 10)
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 60).map(\.apnsID) == leased.map(\.apnsID))
    }

    @Test func outcomesUpdateRecipientsWithoutIndexChangesOnPostgreSQL() async throws {
        guard StoreBackend.allCases.contains(.postgres) else { return }
        let url = try await Blocking.run { try TestPostgres.shared.freshDatabase() }
        let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 2) }
        let count = 300
        _ = try store.enqueue(
            Self.spec("n1", kind: .notification), deliveries: Self.deliveries(count, prefix: "n"), idempotency: nil,
            now: Self.t0)
        let leased = try store.lease(limit: count, duration: 30, now: Self.t0)
        #expect(leased.count == count)
        // The delivered statement the store runs (the lease wrote no recipient's row), in a transaction of
        // its own that reads its own counts of HOT updates (an update that wrote no index entry) before it
        // is rolled back.
        let connection = try PostgresConnection(url: url)
        let padded = StatementShapes.padded(count)
        let ids = leased.map { SQLValue.integer($0.id) } + Array(repeating: .integer(-1), count: padded - count)
        try connection.script("BEGIN")
        let changed = try connection.run(
            OutcomeStatements.delivered(count: padded),
            [.integer(1), .real(Self.t0.timeIntervalSince1970 + 1), .integer(1)] + ids
        ).changes
        let hot = try connection.query(
            """
            SELECT pg_stat_get_xact_tuples_updated('deliveries'::regclass),
                pg_stat_get_xact_tuples_hot_updated('deliveries'::regclass)
            """)
        try connection.script("ROLLBACK")
        #expect(changed == count)
        #expect(hot.first?[0].integer == Int64(count))
        #expect(hot.first?[1].integer == Int64(count))
    }

    @Test(arguments: StoreBackend.allCases)
    func theMigrationMakesBatchesOfAPopulatedQueue(_ backend: StoreBackend) async throws {
        let before = StoreMigrations.migrations.firstIndex { $0.name == "9q-queue-batches" } ?? 0
        #expect(StoreMigrations.migrations[before - 1].name == "8i-deliveries-without-notification-check")
        let store = try await UpgradedStore.open(backend, before: before, now: Self.t0, populate: Self.populate).store
        // c1: 600 queued, one lease expired at t0 + 30, one held to t0 + 90, two delivered; n1: one queued.
        // Runs of one state and lease end: the queued, the expired lease, the held one, the queued.
        #expect(try Self.batches(store).map { $0[0].text ?? "" } == ["c1", "c1", "c1", "c1", "n1"])
        #expect(try store.queueDepth() == 603)
        let leased = try store.lease(limit: 1_000, duration: 30, now: Self.t0 + 60)
        #expect(leased.count == 602)
        #expect(!leased.contains { $0.apnsID == "c1-held" })
        #expect(leased.first { $0.apnsID == "c1-expired" }?.leases == 2)
        #expect(
            try store.notification(id: "c1", limit: 0, after: 0)?.counts == [.leased: 602, .delivered: 2])
        _ = try store.record(
            leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false,
            now: Self.t0 + 61)
        #expect(try store.queueDepth() == 1)
        // The held lease comes back once it has expired, with the same apns-id.
        let late = try store.lease(limit: 1_000, duration: 30, now: Self.t0 + 95)
        #expect(late.map(\.apnsID) == ["c1-held"])
        _ = try store.record(
            late.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false,
            now: Self.t0 + 96)
        #expect(try store.queueDepth() == 0)
        #expect(try Self.batches(store).isEmpty)
    }

    /// Recipients in the schema of migration 8: a campaign of 600 queued, an expired and a live lease and
    /// two delivered (the live lease between the queued), and a notification of one queued.
    static func populate(_ connection: any SQLConnection) throws {
        for (id, kind) in [("c1", "campaign"), ("n1", "notification")] {
            try connection.query(
                """
                INSERT INTO notifications (id, app, kind, state, topic, push_type, priority, expiration, collapse_id,
                    created_at, request)
                VALUES (?, 'chat', ?, 'open', 'com.example.chat', 'alert', NULL, NULL, NULL, ?, ?)
                """, [.text(id), .text(kind), .real(t0.timeIntervalSince1970), .blob(Array("{}".utf8))])
            try connection.query(
                "INSERT INTO shared_payloads (notification_id, payload) VALUES (?, ?)",
                [.text(id), .blob(Array("{}".utf8))])
        }
        var rows: [(String, String, String, Double?)] = (0..<300).map { ("c1", "c1-\($0)", "queued", nil) }
        rows += [
            ("c1", "c1-expired", "leased", 30), ("c1", "c1-held", "leased", 90), ("c1", "c1-done-1", "delivered", nil),
            ("c1", "c1-done-2", "delivered", nil),
        ]
        rows += (300..<600).map { ("c1", "c1-\($0)", "queued", nil) }
        rows.append(("n1", "n1-1", "queued", nil))
        for (number, (notification, apnsID, state, leaseUntil)) in rows.enumerated() {
            try connection.query(
                """
                INSERT INTO deliveries (notification_id, app, token, apns_id, state, due_at, leases, lease_token,
                    lease_until, attempts, status, finished_at)
                VALUES (?, 'chat', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(notification), .text(String(format: "%064x", number + 1)), .text(apnsID), .text(state),
                    .real(t0.timeIntervalSince1970), .integer(state == "queued" ? 0 : 1),
                    state == "leased" ? .text("old-worker") : .null,
                    leaseUntil.map { .real(t0.timeIntervalSince1970 + $0) } ?? .null,
                    .integer(state == "delivered" ? 1 : 0), state == "delivered" ? .integer(200) : .null,
                    state == "delivered" ? .real(t0.timeIntervalSince1970 + 1) : .null,
                ])
        }
        try connection.query(
            """
            INSERT INTO campaign_tallies (campaign_id, queued, leased, delivered, rejected, failed, skipped, cancelled)
            VALUES ('c1', 600, 2, 2, 0, 0, 0, 0)
            """)
    }
}
