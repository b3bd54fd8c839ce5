import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// Segments evaluated in SQL (issue 35), on SQLite and PostgreSQL alike: each leaf, `and`/`or`/`not`, counts
/// and keyset pages, saved segments, and app versions compared as versions.
@Suite(.timeLimit(.minutes(3)))
struct SegmentStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    static func token(_ number: Int) -> String { String(format: "%064x", 0xC000 + number) }

    /// Six devices of `chat` (and one of `other`), registered at `t0` unless said.
    func populated(_ backend: StoreBackend) async throws -> SQLGatewayStore {
        let store = try await backend.makeStore()
        let devices: [(Int, String?, String?, String?, [String], Date)] = [
            (1, "fr-CA", "2.1", "u-1", ["beta"], Self.t0),
            (2, "fr_FR", "2.10.3", "u-2", [], Self.t0),
            (3, "de-CH", "1.9", "u-1", ["beta", "vip"], Self.t0 - 40 * Self.day),
            (4, "en-US", "nightly", nil, [], Self.t0 - 40 * Self.day),
            (5, nil, nil, nil, ["vip"], Self.t0),
            (6, "fra", "3", "u-3", [], Self.t0),
        ]
        for (number, locale, version, user, tags, at) in devices {
            _ = try store.register(
                DeviceRegistration(
                    app: "chat", token: Self.token(number), locale: locale, appVersion: version, userID: user,
                    tags: tags, registeredAt: at), now: at)
        }
        _ = try store.register(
            DeviceRegistration(app: "other", token: Self.token(1), locale: "fr", tags: ["beta"], registeredAt: Self.t0),
            now: Self.t0)
        // Device 6 is dead: never counted.
        _ = try store.markInactive(app: "chat", token: Self.token(6), since: Self.t0 + 1, now: Self.t0 + 1)
        return store
    }

    func count(_ store: SQLGatewayStore, _ segment: Segment) throws -> Int {
        try store.countDevices(app: "chat", segment: segment, now: Self.t0 + 10)
    }

    func tokens(_ store: SQLGatewayStore, _ segment: Segment) throws -> Set<String> {
        Set(try store.devices(app: "chat", segment: segment, now: Self.t0 + 10, after: nil, limit: 100).map(\.token))
    }

    @Test(arguments: StoreBackend.allCases)
    func leavesMatchInSQL(_ backend: StoreBackend) async throws {
        let store = try await populated(backend)
        #expect(try count(store, .and([])) == 5)
        #expect(try count(store, .or([])) == 0)
        #expect(try tokens(store, .tag("beta")) == [Self.token(1), Self.token(3)])
        #expect(try tokens(store, .user("u-1")) == [Self.token(1), Self.token(3)])
        // `fr` is the language in any region, spelled with - or _; not `fra` (and 6 is inactive anyway).
        #expect(try tokens(store, .locale("fr")) == [Self.token(1), Self.token(2)])
        #expect(try tokens(store, .locale("fr-CA")) == [Self.token(1)])
        #expect(try tokens(store, .locale("de")) == [Self.token(3)])
        // Versions compare as versions: 2.10.3 > 2.1 > 1.9; "nightly" and none match no comparison.
        let v21 = try #require(AppVersionNumber.parse("2.1"))
        #expect(try tokens(store, .appVersion(.greaterOrEqual, version: v21)) == [Self.token(1), Self.token(2)])
        #expect(try tokens(store, .appVersion(.greater, version: v21)) == [Self.token(2)])
        #expect(try tokens(store, .appVersion(.less, version: v21)) == [Self.token(3)])
        #expect(
            try tokens(store, .appVersion(.equal, version: try #require(AppVersionNumber.parse("2.1.0"))))
                == [Self.token(1)])
        #expect(try tokens(store, .lastSeenDays(30)) == [Self.token(1), Self.token(2), Self.token(5)])
        // `not` is the complement among active devices, those without a user included.
        #expect(try tokens(store, .not(.user("u-1"))) == [Self.token(2), Self.token(4), Self.token(5)])
        #expect(
            try tokens(store, .and([.tag("beta"), .not(.locale("fr"))])) == [Self.token(3)])
        #expect(try tokens(store, .or([.tag("vip"), .locale("en")])) == [Self.token(3), Self.token(4), Self.token(5)])
    }

    /// `time_zone` matches the zone a device registered, not the app's default for those without one.
    @Test(arguments: StoreBackend.allCases)
    func theTimeZoneLeafMatchesTheRegisteredZone(_ backend: StoreBackend) async throws {
        let store = try await populated(backend)
        for (number, zone) in [(1, "Europe/Paris"), (2, "America/New_York"), (3, "Europe/Paris"), (6, "Europe/Paris")] {
            var registration = DeviceRegistration(
                app: "chat", token: Self.token(number), tags: [], registeredAt: Self.t0)
            registration.timeZone = zone
            _ = try store.register(registration, now: Self.t0)
        }
        _ = try store.markInactive(app: "chat", token: Self.token(6), since: Self.t0 + 1, now: Self.t0 + 1)
        #expect(try tokens(store, .timeZone("Europe/Paris")) == [Self.token(1), Self.token(3)])
        #expect(try count(store, .timeZone("Asia/Tokyo")) == 0)
        #expect(
            try tokens(store, .not(.timeZone("Europe/Paris")))
                == [Self.token(2), Self.token(4), Self.token(5)])
    }

    /// `zh-Hant` matches devices registered in a region written in Traditional Chinese (`zh-TW`, `zh_HK`), and
    /// `zh-TW` one registered `zh-Hant-TW`; not Simplified ones.
    @Test(arguments: StoreBackend.allCases)
    func chineseScriptsMatchTheirRegions(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for (number, locale) in [
            (1, "zh-TW"), (2, "zh_HK"), (3, "zh-Hant-TW"), (4, "zh-CN"), (5, "zh-Hans"), (7, "zh"),
        ] {
            _ = try store.register(
                DeviceRegistration(app: "chat", token: Self.token(number), locale: locale, registeredAt: Self.t0),
                now: Self.t0)
        }
        #expect(try tokens(store, .locale("zh-Hant")) == [Self.token(1), Self.token(2), Self.token(3)])
        #expect(try tokens(store, .locale("zh-Hans")) == [Self.token(4), Self.token(5)])
        #expect(try tokens(store, .locale("zh-TW")) == [Self.token(1), Self.token(3)])
        #expect(try count(store, .locale("zh")) == 6)
    }

    @Test(arguments: StoreBackend.allCases)
    func tapsMakeDevicesSeenAndTapped(_ backend: StoreBackend) async throws {
        let store = try await populated(backend)
        let tap = TapRecord(
            app: "chat", eventID: "e1", token: Self.token(4), notificationID: "n_1", category: "order",
            response: .button, button: "track", foreground: false, respondedAt: Self.t0 - 2 * Self.day)
        let dismissal = TapRecord(
            app: "chat", eventID: "e2", token: Self.token(3), notificationID: "n_1", category: "order",
            response: .dismiss, foreground: false, respondedAt: Self.t0 - 2 * Self.day)
        _ = try store.record(taps: [tap, dismissal], now: Self.t0 - 2 * Self.day)
        #expect(try tokens(store, .tapped(category: "order", withinDays: 7)) == [Self.token(4)])
        #expect(try tokens(store, .tapped(category: nil, withinDays: 7)) == [Self.token(4)])
        #expect(try tokens(store, .tapped(category: "chat", withinDays: 7)).isEmpty)
        #expect(try tokens(store, .tapped(category: "order", withinDays: 1)).isEmpty)
        // A tap (a dismissal too) is being seen: 3 and 4 registered 40 days ago.
        #expect(try count(store, .lastSeenDays(30)) == 5)
    }

    @Test(arguments: StoreBackend.allCases)
    func pagesWalkEveryDeviceOnceInTokenOrder(_ backend: StoreBackend) async throws {
        let store = try await populated(backend)
        var seen: [String] = []
        var after: String?
        while true {
            let page = try store.devices(app: "chat", segment: .and([]), now: Self.t0, after: after, limit: 2)
            guard let last = page.last else { break }
            seen += page.map(\.token)
            after = last.token
        }
        #expect(seen == (1...5).map(Self.token))
        let first = try store.devices(app: "chat", segment: .tag("beta"), now: Self.t0, after: nil, limit: 1)
        #expect(first.map(\.locale) == ["fr-CA"])
        #expect(
            try store.locales(app: "chat", tokens: [Self.token(1), Self.token(5), Self.token(9)]) == [
                Self.token(1): "fr-CA"
            ])
    }

    @Test(arguments: StoreBackend.allCases)
    func savedSegmentsAreKeptByName(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try store.saveSegment(
            app: "chat", SavedSegment(name: "fr", expression: #"{"locale":"fr"}"#, updatedAt: Self.t0))
        try store.saveSegment(
            app: "chat", SavedSegment(name: "beta", expression: #"{"tag":"beta"}"#, updatedAt: Self.t0))
        try store.saveSegment(
            app: "chat", SavedSegment(name: "fr", expression: #"{"locale":"fr-CA"}"#, updatedAt: Self.t0 + 1))
        #expect(try store.savedSegments(app: "chat").map(\.name) == ["beta", "fr"])
        #expect(try store.savedSegment(app: "chat", name: "fr")?.expression == #"{"locale":"fr-CA"}"#)
        #expect(try store.savedSegment(app: "other", name: "fr") == nil)
        #expect(try store.deleteSegment(app: "chat", name: "fr"))
        #expect(try !store.deleteSegment(app: "chat", name: "fr"))
    }

    @Test func appVersionsAreNumberedAsVersions() {
        #expect(AppVersionNumber.parse("2") == 2_000_000_000_000)
        #expect(AppVersionNumber.parse("2.1") == AppVersionNumber.parse("2.1.0"))
        #expect(AppVersionNumber.parse("2.10")! > AppVersionNumber.parse("2.9.99")!)
        for bad in ["", "2.", ".1", "1.2.3.4", "v2", "2.1-beta", "1234567", " 2"] {
            #expect(AppVersionNumber.parse(bad) == nil, "\(bad)")
        }
        #expect(AppVersionNumber.stored(nil) == AppVersionNumber.unparsed)
    }
}
