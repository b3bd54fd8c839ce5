import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// The audience table (migration 69) a count reads is kept by the devices table's triggers: every write the store
/// makes, and every write an older process makes to the devices and the tap log during a rolling update, shows
/// in the next count; the migration fills it from the devices already registered.
@Suite(.timeLimit(.minutes(3)))
struct AudienceUpkeepTests {
    static let t0 = AudienceCountTests.t0
    static let day = AudienceCountTests.day
    static let token = AudienceCountTests.migrationToken

    @Test(arguments: StoreBackend.allCases)
    func registrationsTagsTapsDeactivationAndForgettingShowInTheCount(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        func count(_ segment: Segment) throws -> Int {
            try store.countDevices(app: "chat", segment: segment, now: Self.t0)
        }
        var registration = DeviceRegistration(
            app: "chat", token: Self.token(1), locale: "fr-CA", appVersion: "2.1", userID: "u-1", tags: ["beta"],
            registeredAt: Self.t0 - 10 * Self.day)
        registration.timeZone = "Europe/Paris"
        _ = try store.register(registration, now: Self.t0 - 10 * Self.day)
        #expect(try count(.and([])) == 1)
        #expect(try count(.tag("beta")) == 1)
        #expect(try count(.locale("fr")) == 1)
        #expect(try count(.timeZone("Europe/Paris")) == 1)
        #expect(try count(.appVersion(.greaterOrEqual, version: AppVersionNumber.parse("2.1")!)) == 1)
        #expect(try count(.user("u-1")) == 1)
        #expect(try count(.lastSeenDays(7)) == 0)

        // A tag change.
        _ = try store.updateTags(
            app: "chat", token: Self.token(1), add: ["vip"], remove: ["beta"], now: Self.t0 - 9 * Self.day)
        #expect(try count(.tag("beta")) == 0)
        #expect(try count(.tag("vip")) == 1)
        try store.read { connection throws(StoreError) in try Self.expectAudienceBits(connection, backend) }

        // A button tap: seen and tapped.
        _ = try store.record(
            taps: [
                TapRecord(
                    app: "chat", eventID: "e1", token: Self.token(1), notificationID: "n_1", category: "order",
                    response: .button, button: "b", foreground: false, respondedAt: Self.t0 - 2 * Self.day)
            ], now: Self.t0 - 2 * Self.day)
        #expect(try count(.lastSeenDays(7)) == 1)
        #expect(try count(.tapped(category: nil, withinDays: 7)) == 1)
        #expect(try count(.tapped(category: "order", withinDays: 7)) == 1)

        // A re-registration with another locale, and a second device of the user.
        registration.locale = "de-CH"
        registration.registeredAt = Self.t0 - Self.day
        _ = try store.register(registration, now: Self.t0 - Self.day)
        _ = try store.register(
            DeviceRegistration(
                app: "chat", token: Self.token(2), userID: "u-1", tags: [], registeredAt: Self.t0 - Self.day),
            now: Self.t0 - Self.day)
        #expect(try count(.locale("fr")) == 0)
        #expect(try count(.locale("de")) == 1)
        #expect(try count(.user("u-1")) == 2)

        // Deactivation (APNs said the token is gone), then forgetting the other device.
        #expect(try store.markInactive(app: "chat", token: Self.token(1), since: Self.t0, now: Self.t0))
        #expect(try count(.and([])) == 1)
        #expect(try count(.tag("vip")) == 0)
        #expect(try count(.user("u-1")) == 1)
        #expect(try store.forget(app: "chat", token: Self.token(2)))
        #expect(try count(.and([])) == 0)

        // A registration newer than the deactivation brings the device back.
        registration.registeredAt = Self.t0 + 1
        _ = try store.register(registration, now: Self.t0 + 1)
        #expect(try count(.tag("vip")) == 0)
        #expect(try count(.and([])) == 1)
        #expect(try count(.tapped(category: nil, withinDays: 7)) == 1)
        try store.read { connection throws(StoreError) in try Self.expectAudienceBits(connection, backend) }
    }

    @Test(arguments: StoreBackend.allCases)
    func theMigrationFillsTheAudienceAndOlderProcessesWritesShowInTheCount(_ backend: StoreBackend) async throws {
        // An older process: the statements of the release before migration 69, which knows no audience table.
        let (store, older) = try await AudienceCountTests.upgradedStore(
            backend, from: "69-audience-table", populate: Self.populate)
        // Every count a scan of the audience rows (no tag leads: these writes leave the tag index as it is).
        func count(_ segment: Segment) throws -> Int {
            try store.countDevices(app: "chat", segment: segment, now: Self.t0, rareTagLimit: 0)
        }
        // Filled: devices 1 and 2 (3 is inactive), their tags, last seen (1's tap two days ago) and last button tap.
        #expect(try count(.and([])) == 2)
        #expect(try count(.tag("beta")) == 1)
        #expect(try count(.tag("vip")) == 1)
        #expect(try count(.locale("fr")) == 1)
        #expect(try count(.lastSeenDays(3)) == 1)
        #expect(try count(.tapped(category: "order", withinDays: 7)) == 1)

        try Self.insertDevice(older, number: 4, tags: #"["vip","beta"]"#, active: 1)
        #expect(try count(.tag("beta")) == 2)
        try Self.expectAudienceBits(older, backend)
        try older.query(
            "UPDATE devices SET tags = ?, updated_at = ? WHERE app = 'chat' AND token = ?",
            [.text(#"["vip"]"#), .real(Self.t0.timeIntervalSince1970), .text(Self.token(4))])
        #expect(try count(.tag("beta")) == 1)
        #expect(try count(.lastSeenDays(1)) == 1)
        try Self.expectAudienceBits(older, backend)
        try AudienceCountTests.insertTap(older, event: "e9", token: Self.token(2), response: "button", days: 0.5)
        #expect(try count(.tapped(category: nil, withinDays: 1)) == 1)
        #expect(try count(.lastSeenDays(1)) == 2)
        try older.query(
            "UPDATE devices SET active = 0, inactive_since = ? WHERE app = 'chat' AND token = ?",
            [.real(Self.t0.timeIntervalSince1970), .text(Self.token(1))])
        #expect(try count(.tag("beta")) == 0)
        #expect(try count(.tag("vip")) == 2)
        try older.query("DELETE FROM devices WHERE app = 'chat' AND token = ?", [.text(Self.token(4))])
        #expect(try count(.tag("vip")) == 1)
        #expect(try count(.and([])) == 1)
        try older.query(
            "UPDATE devices SET active = 1, inactive_since = NULL WHERE app = 'chat' AND token = ?",
            [.text(Self.token(3))])
        #expect(try count(.and([])) == 2)
        try Self.expectAudienceBits(older, backend)
    }

    @Test
    func sqliteBitsAreTheSwiftOnesForEveryTagListAndLanguage() async throws {
        let store = try await StoreBackend.sqlite.makeStore()
        func bits(_ json: String, language: String? = nil) throws -> Int64? {
            try store.read { connection throws(StoreError) in
                try connection.query(
                    "SELECT " + AudienceBits.sql(tags: "?1", language: "?2"),
                    [.text(json), language.map { .text($0) } ?? .null]
                ).first?[0].integer
            }
        }
        // Short and long tags (the hash's first and last four characters overlap or leave a gap), accents
        // composed and not, characters beyond the BMP, and lists with one tag twice.
        let tags = [
            "a", "ab", "abc", "abcd", "abcdefg", "abcdefgh", "newsletter", "newsletter-weekly-digest", "é", "e\u{301}",
            "😀", "x😀y", "東京", "vip", "city-19", "interest-18",
        ]
        for tag in tags {
            let json = String(decoding: JSONWriter.compact(.array([.string(tag)])), as: UTF8.self)
            #expect(try bits(json) == AudienceBits.mask(of: tag), "\(tag)")
            #expect(try bits("[]", language: tag) == AudienceBits.mask(of: tag), "\(tag)")
        }
        let list = String(decoding: JSONWriter.compact(.array(tags.map { .string($0) })), as: UTF8.self)
        #expect(try bits(list) == AudienceBits.bits(of: tags))
        #expect(try bits(#"["vip","beta","vip"]"#) == AudienceBits.bits(of: ["vip", "beta"]))
        #expect(try bits("[]") == 0)
        #expect(try bits(#"["vip"]"#, language: "fr") == AudienceBits.bits(of: ["vip", "fr"]))
        // Not a JSON array: every bit, so that the tag list alone decides.
        #expect(try bits("not json") == -1)
        #expect(try bits(#"{"vip":1}"#) == -1)
    }

    /// Three devices of `chat` as the release before migration 69 holds them (its migrations' columns; device 3
    /// inactive), and a button tap of device 1 two days ago.
    static func populate(_ connection: any SQLConnection) throws {
        try insertDevice(connection, number: 1, tags: #"["beta","x"]"#, active: 1, locale: "fr-CA")
        try insertDevice(connection, number: 2, tags: #"["vip"]"#, active: 1)
        try insertDevice(connection, number: 3, tags: #"["beta"]"#, active: 0)
        try AudienceCountTests.insertTap(connection, event: "e1", token: token(1), response: "button", days: 2)
    }

    /// On SQLite, that every audience row's bits are those of its device's tags and language (``AudienceBits``).
    static func expectAudienceBits(_ connection: any SQLConnection, _ backend: StoreBackend) throws(StoreError) {
        guard backend == .sqlite else { return }
        let rows = try connection.query(
            "SELECT v.tags, a.bits, a.language FROM devices v JOIN audience a ON a.app = v.app AND a.token = v.token",
            [])
        #expect(!rows.isEmpty)
        for row in rows {
            let tags = try? JSONDecoder().decode([String].self, from: Data((row[0].text ?? "").utf8))
            let language = row[2].text.map { [$0] } ?? []
            #expect(tags != nil && row[1].integer == AudienceBits.bits(of: (tags ?? []) + language), "\(row)")
        }
    }

    static func insertDevice(
        _ connection: any SQLConnection, number: Int, tags: String, active: Int, locale: String? = nil
    ) throws {
        let registered = SQLValue.real(t0.timeIntervalSince1970 - 10 * day)
        try connection.query(
            """
            INSERT INTO devices (app, token, environment, locale, tags, registered_at, updated_at, active,
                version_number)
            VALUES ('chat', ?, 'production', ?, ?, ?, ?, ?, -1)
            """,
            [
                .text(token(number)), locale.map { .text($0) } ?? .null, .text(tags), registered, registered,
                .integer(Int64(active)),
            ])
    }
}
