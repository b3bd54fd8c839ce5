import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Pages large enough for PostgreSQL's COPY (``SQLGatewayStore/rowsToCopy`` and more), on both stores: every
/// recipient once, its payload (own or shared), inactive devices skipped and counted, ids from the sequence
/// even when another transaction takes ids in between.
@Suite(.timeLimit(.minutes(3)))
struct CopyIntakeTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String, kind: NotificationSpec.Kind = .campaign) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: t0)
    }

    /// `count` recipients; every tenth has a payload of its own.
    static func page(_ count: Int, prefix: String) -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)",
                payload: Array((index % 10 == 3 ? "{\"own\":\(index)}" : "{}").utf8))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aLargePageKeepsEveryPayloadAndSkipsInactiveDevices(_ backend: StoreBackend) async throws {
        #expect(SQLGatewayStore.rowsToCopy <= 300)
        let store = try await backend.makeStore()
        let dead = String(format: "%064x", 5)
        _ = try store.register(DeviceRegistration(app: "chat", token: dead, registeredAt: Self.t0), now: Self.t0)
        _ = try store.markInactive(app: "chat", token: dead, since: Self.t0 + 1, now: Self.t0 + 1)
        _ = try store.enqueue(Self.spec("c1"), deliveries: Self.page(300, prefix: "a"), idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: Self.page(1_200, prefix: "b"), now: Self.t0) == 1_200)
        let record = try #require(try store.notification(id: "c1", limit: 2_000, after: 0))
        #expect(record.counts == [.queued: 1_498, .skipped: 2])
        #expect(record.deliveries.count == 1_500)
        #expect(record.deliveries.filter { $0.state == .skipped }.map(\.apnsID) == ["a-4", "b-4"])
        #expect(record.deliveries.filter { $0.state == .skipped }.allSatisfy { $0.reason == "DeviceInactive" })
        // Ids ascend in each page's order.
        let ids = record.deliveries.map(\.id)
        #expect(ids == ids.sorted() && Set(ids).count == 1_500)
        #expect(record.deliveries.prefix(300).map(\.apnsID) == (0..<300).map { "a-\($0)" })
        let leased = try store.lease(limit: 2_000, duration: 30, now: Self.t0)
        #expect(leased.count == 1_498)
        for delivery in leased {
            let index = Int(delivery.apnsID.split(separator: "-")[1]) ?? -1
            #expect(
                String(decoding: delivery.payload, as: UTF8.self) == (index % 10 == 3 ? "{\"own\":\(index)}" : "{}"))
        }
    }

    /// Another session takes ids while a page is copied (made certain here: the sequence counts by 3, so no
    /// two of the page's ids are consecutive); each recipient still gets its own id and its own payload.
    @Test func copiedRecipientsTakeIDsThatAreNotConsecutive() async throws {
        let url = try await Blocking.run { () throws -> String in try TestPostgres.shared.freshDatabase() }
        let store = try SQLGatewayStore.postgres(url: url, connections: 1, now: Self.t0)
        try PostgresConnection(url: url).script("ALTER SEQUENCE deliveries_id_seq INCREMENT BY 3")
        _ = try store.enqueue(Self.spec("c1"), deliveries: [], idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: Self.page(100, prefix: "a"), now: Self.t0) == 100)
        let record = try #require(try store.notification(id: "c1", limit: 200, after: 0))
        let ids = record.deliveries.map(\.id)
        #expect(ids.count == 100 && zip(ids, ids.dropFirst()).allSatisfy { $1 - $0 == 3 })
        let leased = try store.lease(limit: 200, duration: 30, now: Self.t0)
        #expect(leased.count == 100)
        for delivery in leased {
            let index = Int(delivery.apnsID.split(separator: "-")[1]) ?? -1
            #expect(
                String(decoding: delivery.payload, as: UTF8.self) == (index % 10 == 3 ? "{\"own\":\(index)}" : "{}"))
        }
    }

    /// Migration 8i: PostgreSQL no longer runs a trigger per recipient to check its notification; SQLite's
    /// rendering of it is empty.
    @Test func theNotificationCheckIsGoneOnPostgreSQLOnly() async throws {
        let url = try await Blocking.run { () throws -> String in try TestPostgres.shared.freshDatabase() }
        _ = try SQLGatewayStore.postgres(url: url, connections: 1, now: Self.t0)
        let connection = try PostgresConnection(url: url)
        let checks = try connection.query(
            "SELECT COUNT(*) FROM pg_constraint WHERE conrelid = CAST('deliveries' AS regclass) AND contype = 'f'")
        #expect(checks == [[.integer(0)]])
        let migration = try #require(
            StoreMigrations.migrations.first { $0.name == "8i-deliveries-without-notification-check" })
        #expect(SQLDialect.postgres.render(migration.sql).contains("ALTER TABLE deliveries DROP CONSTRAINT"))
        #expect(!SQLDialect.sqlite.render(migration.sql).contains("ALTER"))
        #expect(SQLDialect.sqlite.render("A {POSTGRES: B;} C {POSTGRES: D;}") == "A  C ")
        #expect(SQLDialect.postgres.render("A {POSTGRES: B;} C {POSTGRES: D;}") == "A B; C D;")
    }
}
