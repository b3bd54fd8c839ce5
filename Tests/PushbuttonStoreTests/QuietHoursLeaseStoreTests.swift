import Foundation
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// Quiet hours re-checked when a lease takes a recipient (issue 35), on SQLite and PostgreSQL: a recipient
/// queued outside its device's window but taken inside it (a throttled campaign spread into the night) is put
/// back until the window's end, counted `held`, and sent once then; a notification without a hold (a single
/// send, `ignore_quiet_hours`) and a device whose own window or zone says otherwise are sent. Time is the
/// `now` each call is given.
@Suite(.timeLimit(.minutes(5)))
struct QuietHoursLeaseStoreTests {
    /// 2026-12-01T21:55:00Z.
    static let t0 = Date(timeIntervalSince1970: 1_796_126_400 + 9 * 3600 + 55 * 60)
    /// 22:00–08:00, devices without a zone in UTC.
    static let night = QuietHoursHold(start: 22 * 60, end: 8 * 60, defaultTimeZone: "UTC")
    /// Leases that outlast the test's clock (no outcomes are recorded: an expired lease would be taken again).
    static let noExpiry: TimeInterval = 3 * 86_400

    func spec(_ id: String, kind: NotificationSpec.Kind = .campaign, perMinute: Int? = nil, quiet: QuietHoursHold?)
        -> NotificationSpec
    {
        var spec = NotificationSpec(
            id: id, app: "chat", kind: kind, topic: "com.example.chat", createdAt: Self.t0, sendAt: nil,
            throttlePerMinute: perMinute)
        spec.quietHours = quiet
        return spec
    }

    func deliveries(_ count: Int, prefix: String = "d") -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)", payload: Array("{}".utf8))
        }
    }

    /// 60 recipients at 6 a minute from 21:55 (two processes taking turns, a lease every 10 s): the 30 due
    /// before 22:00 are sent, the rest held (none sent in the night) and sent once each from 08:00 on, still
    /// at the campaign's rate.
    @Test(arguments: StoreBackend.allCases)
    func aThrottledCampaignsLaterRecipientsWaitForTheEndOfQuietHours(_ backend: StoreBackend) async throws {
        let (first, second) = try await backend.twoProcesses()
        _ = try await Blocking.run {
            try first.enqueue(
                spec("c1", perMinute: 6, quiet: Self.night), deliveries: deliveries(60), idempotency: nil,
                now: Self.t0)
        }
        let stores = [first, second]
        var sentAt: [String: Date] = [:]
        func tick(_ now: Date, _ index: Int) async throws {
            let store = stores[index % 2]
            for delivery in try await Blocking.run({ try store.lease(limit: 100, duration: Self.noExpiry, now: now) }) {
                #expect(sentAt[delivery.apnsID] == nil, "sent once")
                sentAt[delivery.apnsID] = now
            }
        }
        // 21:55 to 22:10, a lease every 10 s.
        for index in 0..<90 { try await tick(Self.t0 + Double(index) * 10, index) }
        let ten = Self.t0 + 5 * 60
        #expect(sentAt.count == 30, "sent before 22:00: \(sentAt.count)")
        #expect(sentAt.values.allSatisfy { $0 < ten })
        let waiting = try await Blocking.run { try first.schedule(of: "c1", now: ten + 600) }
        #expect(waiting.held == 30)
        let morning = Self.t0 + 10 * 3600 + 5 * 60
        #expect(try await Blocking.run { try second.nextDue(now: ten + 600) } == morning)
        // The night, an hour at a time: nothing goes out.
        for hour in 1..<10 { try await tick(ten + Double(hour) * 3600, hour) }
        #expect(sentAt.count == 30)
        // From 08:00, every 10 s for 10 minutes.
        for index in 0..<60 { try await tick(morning + Double(index) * 10, index) }
        #expect(sentAt.count == 60)
        #expect(sentAt.values.filter { $0 >= morning }.count == 30)
        let record = try await Blocking.run { try first.notification(id: "c1", limit: 0, after: 0) }
        #expect(record?.counts[.leased] == 60)
        #expect(try await Blocking.run { try first.schedule(of: "c1", now: morning + 600) }.held == 0)
    }

    /// At 23:00Z: a notification without a hold (a single send, a campaign with `ignore_quiet_hours`) is sent;
    /// of a held campaign's devices, one whose own window (01:00–06:00) does not cover 23:00 and one in Tokyo
    /// (08:00 there) are sent, a device in Paris (midnight) is held to 08:00 Paris (07:00Z) — the zone and
    /// window read at the lease, registered after the campaign was queued.
    @Test(arguments: StoreBackend.allCases)
    func theDevicesWindowAndZoneAsRegisteredAtTheLeaseDecide(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let late = Self.t0 + 65 * 60
        try await Blocking.run {
            _ = try store.enqueue(
                spec("n1", kind: .notification, quiet: nil), deliveries: deliveries(2, prefix: "n"), idempotency: nil,
                now: Self.t0)
            _ = try store.enqueue(
                spec("c1", quiet: Self.night), deliveries: deliveries(4), idempotency: nil, now: Self.t0)
            let tokens = deliveries(4).map(\.token)
            var own = DeviceRegistration(app: "chat", token: tokens[0], registeredAt: Self.t0, timeZone: "UTC")
            own.quietHours = (60, 360)
            _ = try store.register(own, now: Self.t0)
            _ = try store.register(
                DeviceRegistration(app: "chat", token: tokens[1], registeredAt: Self.t0, timeZone: "Asia/Tokyo"),
                now: Self.t0)
            _ = try store.register(
                DeviceRegistration(app: "chat", token: tokens[2], registeredAt: Self.t0, timeZone: "Europe/Paris"),
                now: Self.t0)
        }
        let leased = try await Blocking.run { try store.lease(limit: 100, duration: Self.noExpiry, now: late) }
        #expect(Set(leased.map(\.apnsID)) == ["n-0", "n-1", "d-0", "d-1"])
        // Token 4 has no registration: UTC, held to 08:00Z; Paris' 08:00 is 07:00Z.
        let paris = Self.t0 + 9 * 3600 + 5 * 60
        #expect(try await Blocking.run { try store.schedule(of: "c1", now: late) }.held == 2)
        #expect(try await Blocking.run { try store.nextDue(now: late) } == paris)
        #expect(
            try await Blocking.run { try store.lease(limit: 100, duration: Self.noExpiry, now: paris) }.map(\.apnsID)
                == ["d-2"])
        #expect(
            try await Blocking.run { try store.lease(limit: 100, duration: Self.noExpiry, now: paris + 3600) }.map(
                \.apnsID)
                == ["d-3"])
    }
}
