import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Audience counts over migration 69's audience table (tags read from the device's own tag list, last taps kept
/// on the device by the tap log's trigger) and led by a rare tag (``TagLead``) or a user: on random devices, tags
/// (awkward ones too), taps and expressions, every count, scanned or led, is what a plain evaluation of the
/// segment in Swift over the same devices gives, on SQLite and PostgreSQL.
@Suite(.timeLimit(.minutes(3)))
struct AudienceCountTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400

    /// Tags a device may have: plain ones (on SQLite first tested by their bits, AudienceBits: one character, one
    /// beyond the BMP), and ones a match in the JSON text could get wrong (quotes, backslashes, commas, brackets,
    /// one tag inside another), which take the tag index instead.
    static let tags = [
        "beta", "vip", "be", "eta", "a\"b", "\"beta\"", ",beta", "beta,", "]x", "[beta", "c\\", "\\", "é",
        "a", "😀vip", "x\",\"beta",
    ]
    static let locales: [String?] = [nil, "fr", "fr-CA", "fr_FR", "fra", "en-US", "zh-TW", "zh-Hant-TW", "zh_CN"]
    static let versions: [String?] = [nil, "1.9", "2.1", "2.1.0", "2.10.3", "3", "nightly"]
    static let zones: [String?] = [nil, "Europe/Paris", "Asia/Tokyo"]
    static let categories = ["order", "chat"]

    /// A device as registered, and the taps it reported.
    struct Device {
        var token: String
        var active: Bool
        var locale: String?
        var version: String?
        var user: String?
        var zone: String?
        var tags: [String]
        var seen: Date
        var taps: [(category: String, response: TapRecord.Response, at: Date)] = []
    }

    /// Whether `segment` reaches `device`, by the segment language's rules (issue 35), in Swift.
    static func matches(_ segment: Segment, _ device: Device, now: Date) -> Bool {
        switch segment {
        case .and(let parts): return parts.allSatisfy { matches($0, device, now: now) }
        case .or(let parts): return parts.contains { matches($0, device, now: now) }
        case .not(let part): return !matches(part, device, now: now)
        case .tag(let tag): return device.tags.contains(tag)
        case .user(let user): return device.user == user
        case .timeZone(let zone): return device.zone == zone
        case .locale(let locale):
            guard let registered = device.locale else { return false }
            return SegmentSQL.chineseForms(of: locale).contains { form in
                let dashed = form.replacingOccurrences(of: "_", with: "-")
                let underscored = form.replacingOccurrences(of: "-", with: "_")
                return registered == dashed || registered == underscored || registered.hasPrefix(dashed + "-")
                    || registered.hasPrefix(underscored + "_")
            }
        case .appVersion(let comparison, let version):
            guard let number = device.version.flatMap(AppVersionNumber.parse) else { return false }
            switch comparison {
            case .equal: return number == version
            case .notEqual: return number != version
            case .less: return number < version
            case .lessOrEqual: return number <= version
            case .greater: return number > version
            case .greaterOrEqual: return number >= version
            }
        case .lastSeenDays(let days):
            let since = now.addingTimeInterval(-Double(days) * day)
            return device.seen >= since || device.taps.contains { $0.at >= since }
        case .tapped(let category, let days):
            let since = now.addingTimeInterval(-Double(days) * day)
            return device.taps.contains {
                $0.response == .button && $0.at >= since && (category == nil || $0.category == category)
            }
        }
    }

    static func randomLeaf(_ random: inout SplitMix64) -> Segment {
        switch random.next() % 8 {
        case 0, 1: return .tag(tags.randomElement(using: &random)!)
        case 2: return .user("u-\(random.next() % 4)")
        case 3: return .locale(["fr", "fr-CA", "zh-Hant", "zh-TW", "en", "de"].randomElement(using: &random)!)
        case 4:
            let version = AppVersionNumber.parse(["2.1", "2", "3.0"].randomElement(using: &random)!)!
            let comparisons: [Segment.VersionComparison] = [
                .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual,
            ]
            return .appVersion(comparisons.randomElement(using: &random)!, version: version)
        case 5: return .timeZone(zones.compactMap { $0 }.randomElement(using: &random)!)
        case 6: return .lastSeenDays([1, 7, 30].randomElement(using: &random)!)
        default:
            return .tapped(
                category: [nil, "order", "chat"].randomElement(using: &random)!,
                withinDays: [1, 7, 30].randomElement(using: &random)!)
        }
    }

    static func randomSegment(_ random: inout SplitMix64, depth: Int) -> Segment {
        guard depth > 0 else { return randomLeaf(&random) }
        switch random.next() % 4 {
        case 0: return .not(randomSegment(&random, depth: depth - 1))
        case 1: return .and((0..<Int(1 + random.next() % 3)).map { _ in randomSegment(&random, depth: depth - 1) })
        case 2: return .or((0..<Int(1 + random.next() % 3)).map { _ in randomSegment(&random, depth: depth - 1) })
        default: return randomLeaf(&random)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func countsAreThoseOfThePlainEvaluation(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        var random = SplitMix64(seed: 62)
        var devices: [Device] = []
        for number in 0..<120 {
            let device = Device(
                token: String(format: "%064x", 0xA000 + number), active: random.next() % 8 != 0,
                locale: Self.locales.randomElement(using: &random)!,
                version: Self.versions.randomElement(using: &random)!,
                user: random.next() % 3 == 0 ? nil : "u-\(random.next() % 4)",
                zone: Self.zones.randomElement(using: &random)!,
                tags: (0..<Int(random.next() % 4)).map { _ in Self.tags.randomElement(using: &random)! },
                seen: Self.t0 - Double(random.next() % 40) * Self.day - Double(random.next() % 86_400))
            devices.append(device)
        }
        var events = 0
        for index in devices.indices {
            var registration = DeviceRegistration(
                app: "chat", token: devices[index].token, locale: devices[index].locale,
                appVersion: devices[index].version, userID: devices[index].user, tags: devices[index].tags,
                registeredAt: devices[index].seen)
            registration.timeZone = devices[index].zone
            _ = try store.register(registration, now: devices[index].seen)
            if !devices[index].active {
                _ = try store.markInactive(
                    app: "chat", token: devices[index].token, since: devices[index].seen + 1, now: devices[index].seen)
            }
            // Taps in two batches, the later one first for some devices: the last tap is the latest, not the
            // last recorded.
            for _ in 0..<Int(random.next() % 4) {
                let at = Self.t0 - Double(random.next() % 40) * Self.day
                let response: TapRecord.Response = [.button, .body, .dismiss].randomElement(using: &random)!
                let category = Self.categories.randomElement(using: &random)!
                events += 1
                _ = try store.record(
                    taps: [
                        TapRecord(
                            app: "chat", eventID: "e\(events)", token: devices[index].token, notificationID: "n_1",
                            category: category, response: response, button: response == .button ? "b" : nil,
                            foreground: false, respondedAt: at)
                    ], now: at)
                devices[index].taps.append((category, response, at))
            }
        }
        // Another app's device with every tag: never counted.
        _ = try store.register(
            DeviceRegistration(
                app: "other", token: devices[0].token, locale: "fr", tags: Self.tags, registeredAt: Self.t0),
            now: Self.t0)
        let active = devices.filter(\.active)
        for round in 0..<300 {
            let segment = Self.randomSegment(&random, depth: round % 4)
            let expected = active.filter { Self.matches(segment, $0, now: Self.t0) }
            #expect(
                try store.countDevices(app: "chat", segment: segment, now: Self.t0) == expected.count, "\(segment)")
            // Both ways of counting (TagLead): every tag common (a scan), some rare (each tag has about 13
            // tag-index rows), every one rare; on the segment and on one a tag leads.
            let led = Segment.and([.tag(Self.tags.randomElement(using: &random)!), segment])
            let ledExpected = active.filter { Self.matches(led, $0, now: Self.t0) }.count
            for limit in [0, 13, 1_000] {
                #expect(
                    try store.countDevices(app: "chat", segment: segment, now: Self.t0, rareTagLimit: limit)
                        == expected.count, "\(segment), rare under \(limit)")
                #expect(
                    try store.countDevices(app: "chat", segment: led, now: Self.t0, rareTagLimit: limit)
                        == ledExpected, "\(led), rare under \(limit)")
            }
            if round % 10 == 0 {
                let tokens = try store.devices(app: "chat", segment: segment, now: Self.t0, after: nil, limit: 1000)
                #expect(tokens.map(\.token) == expected.map(\.token).sorted(), "\(segment)")
            }
        }
    }

    /// A count starts from the rarest tag the segment requires (itself or a part of its top-level `and`s, nested
    /// ones flattened) under the limit, with the rest of the segment; a tag under an `or` or a `not` never leads.
    @Test(arguments: StoreBackend.allCases)
    func theLeadIsTheRarestRequiredTagUnderTheLimit(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for (number, tags) in [(1, ["beta", "vip"]), (2, ["beta"]), (3, ["beta", "vip", "x"])] {
            _ = try store.register(
                DeviceRegistration(
                    app: "chat", token: Self.migrationToken(number), tags: tags, registeredAt: Self.t0), now: Self.t0)
        }
        _ = try store.register(
            DeviceRegistration(app: "other", token: Self.migrationToken(9), tags: ["x"], registeredAt: Self.t0),
            now: Self.t0)
        func lead(_ segment: Segment, under limit: Int) throws -> TagLead? {
            try store.read { connection throws(StoreError) in
                try TagLead.find(in: segment, app: "chat", limit: limit, connection: connection)
            }
        }
        #expect(try lead(.tag("beta"), under: 3) == nil)
        #expect(try lead(.tag("beta"), under: 4) == TagLead(tag: "beta", rows: 3, rest: .and([])))
        #expect(
            try lead(.and([.tag("beta"), .and([.tag("vip"), .locale("fr")])]), under: 10)
                == TagLead(tag: "vip", rows: 2, rest: .and([.tag("beta"), .locale("fr")])))
        #expect(
            try lead(.and([.tag("x"), .not(.tag("beta")), .tag("x")]), under: 10)
                == TagLead(tag: "x", rows: 1, rest: .and([.not(.tag("beta"))])))
        #expect(
            try lead(.and([.tag("beta"), .tag("none")]), under: 10)
                == TagLead(tag: "none", rows: 0, rest: .and([.tag("beta")])))
        #expect(try lead(.or([.tag("x")]), under: 10) == nil)
        #expect(try lead(.not(.tag("x")), under: 10) == nil)
        #expect(try lead(.tag("beta"), under: 0) == nil)
    }

    /// On SQLite a led count searches the tag index for the tag's devices, then each one's audience row by its
    /// key, and reads no other device; unled, it reads the app's range of audience rows.
    @Test func aLedCountSearchesTheTagIndexThenEachDeviceByItsKey() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        _ = try store.register(
            DeviceRegistration(
                app: "chat", token: Self.migrationToken(1), locale: "fr", tags: ["vip"], registeredAt: Self.t0),
            now: Self.t0)
        func plan(rareUnder limit: Int) throws -> [String] {
            try store.read { connection throws(StoreError) -> [String] in
                let count = try store.countStatement(
                    app: "chat", segment: .and([.tag("vip"), .locale("fr")]), now: Self.t0, rareTagLimit: limit,
                    connection: connection)
                return try connection.query("EXPLAIN QUERY PLAN " + count.sql, count.values).compactMap(\.last?.text)
            }
        }
        let led = try plan(rareUnder: 10)
        #expect(led.contains { $0.hasPrefix("SEARCH u USING COVERING INDEX") }, "\(led)")
        #expect(led.contains { $0.hasPrefix("SEARCH d USING PRIMARY KEY (app=? AND token=?)") }, "\(led)")
        #expect(!led.contains { $0.hasPrefix("SCAN") }, "\(led)")
        let scanned = try plan(rareUnder: 0)
        #expect(scanned == ["SEARCH d USING PRIMARY KEY (app=?)"], "\(scanned)")
    }

    /// Only a tag that cannot be mistaken in the JSON text is matched there.
    @Test func plainTagsAreThoseWithNothingEscapedAndNoSeparatorFirst() {
        #expect(SegmentSQL.plainJSONString("beta") == "\"beta\"")
        #expect(SegmentSQL.plainJSONString("é") == "\"é\"")
        #expect(SegmentSQL.plainJSONString("beta,") == "\"beta,\"")
        for awkward in ["", "a\"b", "c\\", ",beta", "]x", "tab\t"] {
            #expect(SegmentSQL.plainJSONString(awkward) == nil, "\(awkward)")
        }
    }

    /// Migration 62 gives the devices their last taps from the tap log already recorded, and the trigger keeps
    /// them from then on, for a tap inserted as a process of the previous version does (no word of the columns).
    @Test(arguments: StoreBackend.allCases)
    func lastTapsAreFilledByTheMigrationAndKeptByTheTrigger(_ backend: StoreBackend) async throws {
        let token = Self.migrationToken
        let (store, connection) = try await Self.upgradedStore(
            backend, from: "62-audience-count", populate: Self.populate)
        func count(_ segment: Segment) throws -> Int {
            try store.countDevices(app: "chat", segment: segment, now: Self.t0)
        }
        #expect(try count(.lastSeenDays(1)) == 1)
        #expect(try count(.lastSeenDays(3)) == 2)
        #expect(try count(.tapped(category: nil, withinDays: 7)) == 1)
        #expect(try count(.tapped(category: "order", withinDays: 7)) == 1)
        #expect(try count(.tapped(category: "chat", withinDays: 7)) == 0)
        // An older process records a button tap of device 3 (and an older tap of device 1, which moves nothing).
        try Self.insertTap(connection, event: "e4", token: token(3), response: "button", days: 0.5)
        try Self.insertTap(connection, event: "e5", token: token(1), response: "button", days: 20)
        #expect(try count(.tapped(category: nil, withinDays: 1)) == 1)
        #expect(try count(.tapped(category: "order", withinDays: 7)) == 2)
        #expect(try count(.lastSeenDays(1)) == 2)
        #expect(try count(.not(.tapped(category: nil, withinDays: 7))) == 1)
    }

    static func migrationToken(_ number: Int) -> String { String(format: "%064x", number) }

    /// A store made by the release before `migration` (the migrations before it), filled by `populate` as that
    /// release would, then opened by this one (which applies the rest); and a connection of its own to the same
    /// database, for writing as an older process does.
    static func upgradedStore(
        _ backend: StoreBackend, from migration: String,
        populate: @escaping @Sendable (any SQLConnection) throws -> Void
    ) async throws -> (SQLGatewayStore, any SQLConnection) {
        let before = try #require(StoreMigrations.migrations.firstIndex { $0.name == migration })
        let (store, location) = try await UpgradedStore.open(backend, before: before, now: t0, populate: populate)
        let connection: any SQLConnection =
            backend == .sqlite ? try SQLiteConnection(path: location) : try PostgresConnection(url: location)
        return (store, connection)
    }

    /// Three devices of `chat` as a store before migration 62 holds them, and their taps.
    static func populate(_ connection: any SQLConnection) throws {
        for number in 1...3 {
            try connection.query(
                """
                INSERT INTO devices (app, token, environment, tags, registered_at, updated_at, active)
                VALUES ('chat', ?, 'production', '[]', ?, ?, 1)
                """, [.text(migrationToken(number)), .real(1), .real(1)])
        }
        // Device 1 tapped a button 2 days ago and was seen (a dismissal) 1 day ago; device 2 only dismissed.
        for (event, number, response, days) in [
            ("e1", 1, "button", 2.0), ("e2", 1, "dismiss", 1), ("e3", 2, "dismiss", 3),
        ] {
            try insertTap(connection, event: event, token: migrationToken(number), response: response, days: days)
        }
    }

    static func insertTap(
        _ connection: any SQLConnection, event: String, token: String, response: String, days: Double
    ) throws {
        let at = t0.timeIntervalSince1970 - days * day
        try connection.query(
            """
            INSERT INTO tap_events (app, event_id, token, notification_id, category, response, foreground,
                responded_at, received_at)
            VALUES ('chat', ?, ?, 'n_1', 'order', ?, 0, ?, ?)
            """, [.text(event), .text(token), .text(response), .real(at), .real(at)])
    }
}
