import Foundation
import PushbuttonStore
import Testing

/// The console's read queries (the device summary and the campaign list), on SQLite and PostgreSQL alike.
@Suite(.timeLimit(.minutes(3)))
struct ConsoleQueriesTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func token(_ number: Int) -> String { String(format: "%064x", 0xCD00 + number) }

    @Test(arguments: StoreBackend.allCases)
    func theDeviceSummaryCountsByEnvironmentLocaleAndVersionAndListsDeadTokensNewestFirst(_ backend: StoreBackend)
        async throws
    {
        let store = try await backend.makeStore()
        let devices: [(String, String?, String?)] = [
            ("production", "en-US", "2.0"), ("production", "fr-FR", "2.0"), ("sandbox", "en-US", "2.1"),
            ("production", nil, nil),
        ]
        for (index, (environment, locale, version)) in devices.enumerated() {
            _ = try store.register(
                DeviceRegistration(
                    app: "chat", token: Self.token(index), environment: environment, locale: locale,
                    appVersion: version, registeredAt: Self.t0),
                now: Self.t0)
        }
        _ = try store.register(
            DeviceRegistration(app: "other", token: Self.token(9), registeredAt: Self.t0), now: Self.t0)
        #expect(try store.markInactive(app: "chat", token: Self.token(1), since: Self.t0 + 100, now: Self.t0 + 300))
        #expect(try store.markInactive(app: "chat", token: Self.token(3), since: Self.t0 + 200, now: Self.t0 + 300))

        let summary = try store.deviceSummary(app: "chat", inactiveLimit: 100)
        #expect(summary.total == 4 && summary.active == 2 && summary.inactive == 2)
        #expect(summary.byEnvironment == ["production": 3, "sandbox": 1])
        #expect(summary.byLocale == ["en-US": 2, "fr-FR": 1, "unknown": 1])
        #expect(summary.byAppVersion == ["2.0": 2, "2.1": 1, "unknown": 1])
        #expect(summary.inactiveTokens.map(\.token) == [Self.token(3), Self.token(1)])
        #expect(summary.inactiveTokens.first?.inactiveSince == Self.t0 + 200)
        #expect(try store.deviceSummary(app: "chat", inactiveLimit: 1).inactiveTokens.map(\.token) == [Self.token(3)])

        let empty = try store.deviceSummary(app: "nobody", inactiveLimit: 100)
        #expect(empty.total == 0 && empty.active == 0 && empty.byLocale.isEmpty && empty.inactiveTokens.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func campaignsAreListedNewestFirstPerApp(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for (index, (id, kind, app)) in [
            ("c_old", NotificationSpec.Kind.campaign, "chat"), ("n_one", .notification, "chat"),
            ("c_new", .campaign, "chat"), ("c_other", .campaign, "other"),
        ].enumerated() {
            let spec = NotificationSpec(
                id: id, app: app, kind: kind, topic: "com.example.chat", createdAt: Self.t0 + Double(index))
            _ = try store.enqueue(spec, deliveries: [], idempotency: nil, now: Self.t0)
        }
        #expect(try store.campaignIDs(app: "chat", limit: 10) == ["c_new", "c_old"])
        #expect(try store.campaignIDs(app: "chat", limit: 1) == ["c_new"])
        #expect(try store.campaignIDs(app: "other", limit: 10) == ["c_other"])
    }
}
