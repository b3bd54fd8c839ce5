import Foundation
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// Issue 35's "when" in the store, on SQLite and PostgreSQL: recipients due at a `send_at` or a time of their
/// own (local time), a scheduled notification cancelled, the next due time for the workers' idle wait, and a
/// campaign's rate shared by every process. Time is the `now` each call is given.
@Suite(.timeLimit(.minutes(5)))
struct SendTimingStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func spec(_ id: String, kind: NotificationSpec.Kind = .notification, sendAt: Date?, perMinute: Int? = nil)
        -> NotificationSpec
    {
        NotificationSpec(
            id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: Self.t0, sendAt: sendAt,
            throttlePerMinute: perMinute)
    }

    func deliveries(_ count: Int, prefix: String = "d", due: (Int) -> Date? = { _ in nil }) -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)", payload: Array("{}".utf8),
                dueAt: due(index))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aScheduledNotificationWaitsForItsTimeAndIsCountedScheduled(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let at = Self.t0 + 3600
        _ = try store.enqueue(spec("n1", sendAt: at), deliveries: deliveries(3), idempotency: nil, now: Self.t0)
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0).isEmpty)
        #expect(try store.lease(limit: 10, duration: 30, now: at - 1).isEmpty)
        #expect(try store.nextDue(now: Self.t0) == at)
        let waiting = try store.schedule(of: "n1", now: Self.t0)
        #expect(waiting.scheduled == 3)
        #expect(waiting.sendAt == at)
        #expect(try store.notification(id: "n1", limit: 0, after: 0)?.spec.sendAt == at)
        #expect(try store.lease(limit: 10, duration: 30, now: at).count == 3)
        #expect(try store.schedule(of: "n1", now: at).scheduled == 0)
    }

    @Test(arguments: StoreBackend.allCases)
    func aCancelledScheduledNotificationIsNeverSent(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(
            spec("n1", sendAt: Self.t0 + 60), deliveries: deliveries(2), idempotency: nil, now: Self.t0)
        let cancelled = try #require(try store.cancel(notification: "n1", now: Self.t0 + 1))
        #expect(cancelled.state == "cancelled")
        #expect(cancelled.counts == [.cancelled: 2])
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0 + 120).isEmpty)
        #expect(try store.nextDue(now: Self.t0 + 1) == nil)
        #expect(try store.cancel(notification: "nope", now: Self.t0) == nil)
        _ = try store.enqueue(
            spec("c1", kind: .campaign, sendAt: nil), deliveries: deliveries(1), idempotency: nil, now: Self.t0)
        #expect(try store.cancel(notification: "c1", now: Self.t0) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func recipientsWithTimesOfTheirOwnComeDueEachAtItsTime(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        // Interleaved due times (three "zones"), a campaign's first page and a second one.
        let times = [Self.t0 + 100, Self.t0 + 200, Self.t0 + 300]
        _ = try store.enqueue(
            spec("c1", kind: .campaign, sendAt: nil), deliveries: deliveries(30) { times[$0 % 3] }, idempotency: nil,
            now: Self.t0)
        _ = try store.append(
            campaign: "c1", deliveries: deliveries(30, prefix: "p") { times[$0 % 3] }, now: Self.t0)
        #expect(try store.schedule(of: "c1", now: Self.t0).scheduled == 60)
        #expect(try store.lease(limit: 100, duration: 600, now: Self.t0 + 99).isEmpty)
        var seen: Set<String> = []
        for (index, time) in times.enumerated() {
            #expect(try store.nextDue(now: time - 1) == time)
            let leased = try store.lease(limit: 100, duration: 600, now: time)
            #expect(leased.count == 20)
            #expect(
                leased.allSatisfy { Int($0.apnsID.split(separator: "-")[1])! % 3 == index },
                "only the recipients due at \(time)")
            seen.formUnion(leased.map(\.apnsID))
        }
        #expect(seen.count == 60)
    }

    /// Two processes (two stores on one database): at the send time both lease at once; every recipient is
    /// leased by exactly one. A process that was down and starts late sends late, once.
    @Test func twoProcessesSendAScheduledCampaignExactlyOnce() async throws {
        let (first, second) = try await StoreBackend.postgres.twoProcesses()
        let at = Self.t0 + 600
        _ = try first.enqueue(
            spec("c1", kind: .campaign, sendAt: at), deliveries: deliveries(2000), idempotency: nil, now: Self.t0)
        #expect(try second.lease(limit: 500, duration: 30, now: Self.t0).isEmpty)
        // Late: both come back an hour after the send time, and lease concurrently.
        let late = at + 3600
        async let a = Blocking.run { try Self.drain(first, now: late) }
        async let b = Blocking.run { try Self.drain(second, now: late) }
        let (leasedA, leasedB) = try await (a, b)
        #expect(leasedA.count + leasedB.count == 2000)
        #expect(Set(leasedA).isDisjoint(with: leasedB))
        #expect(Set(leasedA + leasedB).count == 2000)
    }

    static func drain(_ store: SQLGatewayStore, now: Date) throws -> [String] {
        var all: [String] = []
        while true {
            let leased = try store.lease(limit: 100, duration: 600, now: now)
            if leased.isEmpty { return all }
            all += leased.map(\.apnsID)
        }
    }

    /// 6,000 recipients at 3,000 a minute, leased by two processes taking turns on an injected clock (a tick
    /// every 100 ms): all are sent once, the last about 120 s after the first, and no second sends more than
    /// two seconds' share.
    @Test(arguments: StoreBackend.allCases)
    func aThrottledCampaignIsSpreadEvenlyAcrossProcesses(_ backend: StoreBackend) async throws {
        let (first, second) = try await backend.twoProcesses()
        _ = try first.enqueue(
            spec("c1", kind: .campaign, sendAt: nil, perMinute: 3000), deliveries: deliveries(6000),
            idempotency: nil, now: Self.t0)
        var sentAt: [String: Double] = [:]
        var perSecond: [Int: Int] = [:]
        var tick = 0
        let stores = [first, second]
        while sentAt.count < 6000, tick < 3000 {
            let now = Self.t0 + Double(tick) * 0.1
            let store = stores[tick % 2]
            let leased = try await Blocking.run { try store.lease(limit: 1000, duration: 600, now: now) }
            for delivery in leased {
                #expect(sentAt[delivery.apnsID] == nil, "sent once")
                sentAt[delivery.apnsID] = now.timeIntervalSince(Self.t0)
            }
            perSecond[tick / 10, default: 0] += leased.count
            if tick == 600 {
                let progress = try first.schedule(of: "c1", now: now)
                let finish = try #require(progress.expectedFinish).timeIntervalSince(Self.t0)
                #expect(abs(finish - 120) < 6, "expected finish \(finish)")
                #expect(progress.throttled > 0)
            }
            tick += 1
        }
        #expect(sentAt.count == 6000)
        let last = sentAt.values.max() ?? 0
        #expect(abs(last - 120) <= 6, "finished after \(last) s")
        #expect((perSecond.values.max() ?? 0) <= 100, "largest 1-s burst \(perSecond.values.max() ?? 0)")
        // Nothing is due between the slots: the next due time is the rest's, not now.
        #expect(try first.nextDue(now: Self.t0) != nil)
    }
}

extension StoreBackend {
    /// Two stores on one fresh database, as two gateway processes would have.
    func twoProcesses() async throws -> (SQLGatewayStore, SQLGatewayStore) {
        let backend = self
        return try await Blocking.run { () throws -> (SQLGatewayStore, SQLGatewayStore) in
            switch backend {
            case .sqlite:
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "pushbutton-store-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let path = directory.appendingPathComponent("gateway.db").path
                return (try SQLGatewayStore.sqlite(path: path), try SQLGatewayStore.sqlite(path: path))
            case .postgres:
                let url = try TestPostgres.shared.freshDatabase()
                return (
                    try SQLGatewayStore.postgres(url: url, connections: 2),
                    try SQLGatewayStore.postgres(url: url, connections: 2)
                )
            }
        }
    }
}
