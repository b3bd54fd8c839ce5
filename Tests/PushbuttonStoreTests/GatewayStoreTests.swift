import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// One suite for every store: what the gateway relies on, run against SQLite and PostgreSQL alike.
@Suite(.timeLimit(.minutes(3)))
struct GatewayStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let token = String(repeating: "ab", count: 32)

    func spec(_ id: String, kind: NotificationSpec.Kind = .notification) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: Self.t0)
    }

    func deliveries(_ count: Int, prefix: String = "d") -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)", payload: Array("{}".utf8))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func devicesRegisterRefreshAndAreFoundByUserAndTag(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let device = DeviceRegistration(
            app: "chat", token: Self.token, environment: "sandbox", locale: "fr-FR", appVersion: "2.1", userID: "u1",
            tags: ["beta", "fr"], registeredAt: Self.t0)
        _ = try store.register(device, now: Self.t0)
        var refreshed = device
        refreshed.tags = ["beta"]
        refreshed.locale = "de-DE"
        _ = try store.register(refreshed, now: Self.t0 + 10)
        let read = try #require(try store.device(app: "chat", token: Self.token))
        #expect(read.registration.locale == "de-DE")
        #expect(read.registration.tags == ["beta"])
        #expect(read.active)
        #expect(try store.tokens(app: "chat", audience: .user("u1"), limit: 10) == [Self.token])
        #expect(try store.tokens(app: "chat", audience: .tag("beta"), limit: 10) == [Self.token])
        #expect(try store.tokens(app: "chat", audience: .tag("fr"), limit: 10).isEmpty)
        #expect(try store.tokens(app: "other", audience: .user("u1"), limit: 10).isEmpty)
        #expect(try store.forget(app: "chat", token: Self.token))
        #expect(try !store.forget(app: "chat", token: Self.token))
        #expect(try store.device(app: "chat", token: Self.token) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func aDeadTokenIsRevivedOnlyByANewerRegistration(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let device = DeviceRegistration(app: "chat", token: Self.token, userID: "u1", registeredAt: Self.t0)
        _ = try store.register(device, now: Self.t0)
        #expect(try store.markInactive(app: "chat", token: Self.token, since: Self.t0 + 100, now: Self.t0 + 101))
        #expect(try store.isInactive(app: "chat", token: Self.token))
        #expect(try store.tokens(app: "chat", audience: .user("u1"), limit: 10).isEmpty)
        let read = try #require(try store.device(app: "chat", token: Self.token))
        #expect(read.inactiveSince == Self.t0 + 100)

        var older = device
        older.registeredAt = Self.t0 + 50
        #expect(try !store.register(older, now: Self.t0 + 200).active)
        #expect(try store.isInactive(app: "chat", token: Self.token))

        var newer = device
        newer.registeredAt = Self.t0 + 300
        #expect(try store.register(newer, now: Self.t0 + 300).active)
        #expect(try !store.isInactive(app: "chat", token: Self.token))
        // A 410 whose timestamp predates the latest registration does not kill it again.
        #expect(try !store.markInactive(app: "chat", token: Self.token, since: Self.t0 + 250, now: Self.t0 + 251))
        #expect(try !store.isInactive(app: "chat", token: Self.token))
    }

    @Test(arguments: StoreBackend.allCases)
    func aRenewedLeaseIsNotTakenAndARenewalAfterATakeoverChangesNothing(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("n1"), deliveries: deliveries(3), idempotency: nil, now: Self.t0)
        let held = try store.lease(limit: 10, duration: 30, now: Self.t0)
        #expect(held.count == 3)
        let tokens = Set(held.map(\.leaseToken))
        // Renewed at 20 s until 60 s: at 31 s (past the first lease) nobody may take it.
        #expect(try store.renewLeases(tokens, until: Self.t0 + 60) == 1)
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 31).isEmpty)
        // Not renewed again: at 61 s it is taken over, and the old holder's renewal leaves the new lease alone.
        let takenOver = try store.lease(limit: 10, duration: 30, now: Self.t0 + 61)
        #expect(takenOver.count == 3)
        #expect(try store.renewLeases(tokens, until: Self.t0 + 200) == 0)
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 92).count == 3)
        #expect(try !store.complete(held[0], outcome: .delivered, attempts: 1, now: Self.t0 + 93))
        #expect(try store.renewLeases([], until: Self.t0 + 200) == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func leasesAreExclusiveAndAnExpiredLeaseComesBackWithTheSameAPNsID(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        #expect(
            try store.enqueue(spec("n1"), deliveries: deliveries(3), idempotency: nil, now: Self.t0)
                == .created(id: "n1"))
        #expect(try store.queueDepth() == 3)
        let first = try store.lease(limit: 2, duration: 30, now: Self.t0)
        #expect(first.count == 2)
        let second = try store.lease(limit: 10, duration: 30, now: Self.t0)
        #expect(second.count == 1)
        #expect(Set(first.map(\.id)).isDisjoint(with: second.map(\.id)))
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 1).isEmpty)

        #expect(try store.complete(first[0], outcome: .delivered, attempts: 1, now: Self.t0 + 1))
        // The other lease expires (its worker died): the recipient is due again, same apns-id, 2 leases.
        let again = try store.lease(limit: 10, duration: 30, now: Self.t0 + 31)
        #expect(Set(again.map(\.apnsID)) == Set([first[1].apnsID, second[0].apnsID]))
        #expect(again.allSatisfy { $0.leases == 2 })
        // The dead worker's late answer is refused: one outcome per recipient.
        #expect(try !store.complete(first[1], outcome: .delivered, attempts: 1, now: Self.t0 + 32))
        for delivery in again {
            #expect(
                try store.complete(
                    delivery, outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: Self.t0),
                    attempts: 1, now: Self.t0 + 32))
        }
        #expect(try !store.complete(first[0], outcome: .delivered, attempts: 1, now: Self.t0 + 33))
        let record = try #require(try store.notification(id: "n1", limit: 10, after: 0))
        #expect(record.counts == [.delivered: 1, .rejected: 2])
        #expect(record.deliveries.filter { $0.state == .rejected }.allSatisfy { $0.unregisteredAt == Self.t0 })
        #expect(try store.queueDepth() == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func releasedRecipientsAreDueAgain(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("n1"), deliveries: deliveries(2), idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: 10, duration: 30, now: Self.t0)
        try store.release(leased)
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0).map(\.apnsID).sorted() == ["d-0", "d-1"])
    }

    @Test(arguments: StoreBackend.allCases)
    func anIdempotencyKeyReplaysTheFirstRequest(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let key = IdempotencyKey(key: "k1", fingerprint: "f1")
        #expect(
            try store.enqueue(spec("n1"), deliveries: deliveries(2), idempotency: key, now: Self.t0)
                == .created(id: "n1"))
        #expect(
            try store.enqueue(spec("n2"), deliveries: deliveries(2), idempotency: key, now: Self.t0)
                == .replayed(id: "n1", sameRequest: true))
        #expect(
            try store.enqueue(
                spec("n3"), deliveries: deliveries(2), idempotency: IdempotencyKey(key: "k1", fingerprint: "other"),
                now: Self.t0) == .replayed(id: "n1", sameRequest: false))
        #expect(try store.notification(id: "n2", limit: 0, after: 0) == nil)
        #expect(try store.queueDepth() == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func aCampaignPagesKeyStoresItOnceAndIsTheCampaignsOwn(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for id in ["c1", "c2"] {
            _ = try store.enqueue(spec(id, kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        }
        func page(_ campaign: String, _ key: String, _ fingerprint: String, _ prefix: String) throws
            -> PageAppendResult?
        {
            let page = deliveries(3, prefix: prefix)
            return try store.append(
                campaign: campaign, idempotency: IdempotencyKey(key: key, fingerprint: fingerprint), now: Self.t0
            ) { (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
                for delivery in page { try emit(delivery) }
            }
        }
        #expect(try page("c1", "p1", "f", "a") == .added(3))
        #expect(try page("c1", "p1", "f", "b") == .replayed(sameRequest: true))
        #expect(try page("c1", "p1", "other", "b") == .replayed(sameRequest: false))
        #expect(try page("c2", "p1", "f", "c") == .added(3))
        #expect(try page("nope", "p1", "f", "d") == nil)
        #expect(try store.queueDepth() == 6)
        // A create route's key of the same text is another key.
        let created = try store.enqueue(
            spec("n1"), deliveries: deliveries(1, prefix: "e"),
            idempotency: IdempotencyKey(key: "p1", fingerprint: "f"),
            now: Self.t0)
        #expect(created == .created(id: "n1"))
        _ = try store.cancel(campaign: "c1", now: Self.t0)
        #expect(try page("c1", "p1", "f", "b") == .replayed(sameRequest: true))
        #expect(try page("c1", "p2", "f", "b") == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func campaignsGrowPageByPageAndCancelWhatIsQueued(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: deliveries(3, prefix: "a"), now: Self.t0) == 3)
        var skipped = deliveries(1, prefix: "s")
        skipped[0].skippedBecause = "DeviceInactive"
        #expect(try store.append(campaign: "c1", deliveries: skipped, now: Self.t0) == 1)
        #expect(try store.append(campaign: "nope", deliveries: deliveries(1), now: Self.t0) == nil)
        let leased = try store.lease(limit: 1, duration: 30, now: Self.t0)
        let cancelled = try #require(try store.cancel(campaign: "c1", now: Self.t0))
        #expect(cancelled.state == "cancelled")
        #expect(cancelled.counts == [.leased: 1, .cancelled: 2, .skipped: 1])
        #expect(try store.append(campaign: "c1", deliveries: deliveries(1), now: Self.t0) == nil)
        #expect(try store.complete(leased[0], outcome: .delivered, attempts: 1, now: Self.t0))
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 60).isEmpty)
        #expect(try store.cancel(campaign: "n-unknown", now: Self.t0) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func recipientsPageInIDOrder(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("n1"), deliveries: deliveries(5), idempotency: nil, now: Self.t0)
        let page = try #require(try store.notification(id: "n1", limit: 2, after: 0))
        #expect(page.deliveries.map(\.apnsID) == ["d-0", "d-1"])
        #expect(page.total == 5)
        let next = try #require(try store.notification(id: "n1", limit: 10, after: page.deliveries[1].id))
        #expect(next.deliveries.map(\.apnsID) == ["d-2", "d-3", "d-4"])
    }
}

extension GatewayStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func recipientsWhoseDeviceIsInactiveAreSkippedAtIntake(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let dead = String(format: "%064x", 1)
        _ = try store.register(DeviceRegistration(app: "chat", token: dead, registeredAt: Self.t0), now: Self.t0)
        _ = try store.markInactive(app: "chat", token: dead, since: Self.t0 + 1, now: Self.t0 + 1)
        _ = try store.enqueue(spec("n1"), deliveries: deliveries(2), idempotency: nil, now: Self.t0 + 2)
        let record = try #require(try store.notification(id: "n1", limit: 10, after: 0))
        #expect(record.counts == [.skipped: 1, .queued: 1])
        #expect(record.deliveries.first { $0.token == dead }?.reason == "DeviceInactive")
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 2).map(\.token) == [String(format: "%064x", 2)])
    }
}

extension GatewayStoreTests {
    @Test(arguments: StoreBackend.allCases)
    func batchesLargerThanOneStatementKeepEveryRow(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("n1"), deliveries: deliveries(1_100), idempotency: nil, now: Self.t0)
        _ = try store.enqueue(spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: deliveries(1_001, prefix: "c"), now: Self.t0) == 1_001)
        let leased = try store.lease(limit: 3000, duration: 30, now: Self.t0)
        #expect(leased.count == 2101)
        #expect(Set(leased.map(\.apnsID)).count == 2101)
        var results = leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }
        results[3] = CompletedDelivery(
            leased[3], outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: Self.t0), attempts: 1)
        var stale = leased[5]
        stale.leaseToken = "not-this-lease"
        results[5] = CompletedDelivery(stale, outcome: .delivered, attempts: 1)
        let recorded = try store.complete(results, now: Self.t0)
        #expect(recorded.filter { $0 }.count == 2100)
        #expect(recorded[5] == false)
        let n1 = try #require(try store.notification(id: "n1", limit: 0, after: 0))
        let c1 = try #require(try store.notification(id: "c1", limit: 0, after: 0))
        #expect((n1.counts[.delivered] ?? 0) + (c1.counts[.delivered] ?? 0) == 2099)
        #expect((n1.counts[.rejected] ?? 0) + (c1.counts[.rejected] ?? 0) == 1)
        #expect((n1.counts[.leased] ?? 0) + (c1.counts[.leased] ?? 0) == 1)
    }
}

extension GatewayStoreTests {
    /// Recipients sharing the campaign's payload are stored once per notification; each leased recipient
    /// still comes back with its own payload, across pages and next to recipients with payloads of their own.
    @Test(arguments: StoreBackend.allCases)
    func sharedAndOwnPayloadsComeBackPerRecipient(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(spec("c1", kind: .campaign), deliveries: [], idempotency: nil, now: Self.t0)
        var first = deliveries(250, prefix: "a")
        first[7].payload = Array(#"{"aps":{"alert":"seven"}}"#.utf8)
        #expect(try store.append(campaign: "c1", deliveries: first, now: Self.t0) == 250)
        var second = deliveries(3, prefix: "b")
        second[0].payload = Array(#"{"aps":{"alert":"b0"}}"#.utf8)  // a page that starts with its own payload
        #expect(try store.append(campaign: "c1", deliveries: second, now: Self.t0) == 3)
        _ = try store.enqueue(
            spec("n1"), deliveries: [NewDelivery(token: Self.token, apnsID: "n", payload: Array("{\"n\":1}".utf8))],
            idempotency: nil, now: Self.t0)
        let leased = try store.lease(limit: 1000, duration: 30, now: Self.t0)
        let payloads = Dictionary(
            uniqueKeysWithValues: leased.map { ($0.apnsID, String(decoding: $0.payload, as: UTF8.self)) })
        #expect(payloads.count == 254)
        #expect(payloads["a-7"] == #"{"aps":{"alert":"seven"}}"#)
        #expect(payloads["b-0"] == #"{"aps":{"alert":"b0"}}"#)
        #expect(payloads["n"] == "{\"n\":1}")
        #expect(payloads.filter { $0.value == "{}" }.count == 251)
    }
}
