import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Migration 30: devices registered before it get their app version numbered when the store opens, so
/// `app_version` segments reach them too.
@Suite(.timeLimit(.minutes(3)))
struct SegmentMigrationTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let before = StoreMigrations.migrations.firstIndex { $0.name == "30-segments" } ?? 0

    static func populate(_ connection: any SQLConnection) throws {
        for (number, version) in [(1, "2.1"), (2, "1.0"), (3, "beta")] {
            try connection.query(
                """
                INSERT INTO devices (app, token, environment, app_version, tags, registered_at, updated_at, active)
                VALUES ('chat', ?, 'production', ?, '[]', ?, ?, 1)
                """, [.text(String(format: "%064x", number)), .text(version), .real(1), .real(1)])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func olderDevicesGetTheirVersionNumbered(_ backend: StoreBackend) async throws {
        #expect(Self.before > 0)
        let store = try await UpgradedStore.open(backend, before: Self.before, now: Self.t0, populate: Self.populate)
            .store
        let atLeast2 = try #require(AppVersionNumber.parse("2"))
        #expect(
            try store.countDevices(app: "chat", segment: .appVersion(.less, version: atLeast2), now: Self.t0) == 1)
        #expect(
            try store.countDevices(app: "chat", segment: .not(.appVersion(.less, version: atLeast2)), now: Self.t0)
                == 2)
    }
}
