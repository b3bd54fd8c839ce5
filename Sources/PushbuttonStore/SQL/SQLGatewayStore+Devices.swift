import Foundation
import Pushbutton

/// Devices: registering, forgetting, looking up and deactivating device tokens.
extension SQLGatewayStore {
    private static let deviceColumns =
        "app, token, environment, locale, app_version, user_id, tags, registered_at, updated_at, active, inactive_since"

    private static func device(_ row: [SQLValue]) -> DeviceRecord {
        let tags = (try? JSONParser.parse(row[6].text ?? "[]"))?.arrayValue?.compactMap(\.stringValue) ?? []
        let registration = DeviceRegistration(
            app: row[0].text ?? "", token: row[1].text ?? "", environment: row[2].text ?? "", locale: row[3].text,
            appVersion: row[4].text, userID: row[5].text, tags: tags,
            registeredAt: date(row[7]) ?? Date(timeIntervalSince1970: 0), timeZone: row.count > 11 ? row[11].text : nil)
        var record = registration
        if row.count > 13, let start = row[12].integer, let end = row[13].integer {
            record.quietHours = (Int(start), Int(end))
        }
        return DeviceRecord(
            registration: record, active: row[9].integer == 1, inactiveSince: date(row[10]),
            updatedAt: date(row[8]) ?? registration.registeredAt)
    }

    public func register(_ device: DeviceRegistration, now: Date) throws(StoreError) -> DeviceRecord {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> DeviceRecord in
                let existing = try connection.query(
                    "SELECT \(Self.deviceColumns) FROM devices WHERE app = ? AND token = ?",
                    [.text(device.app), .text(device.token)]
                ).first.map(Self.device)
                var active = true
                var inactiveSince: Date?
                if let existing, !existing.active, let since = existing.inactiveSince, device.registeredAt <= since {
                    // An older registration than the token's death: it stays dead.
                    active = false
                    inactiveSince = since
                }
                let tags = String(decoding: JSONWriter.compact(.array(device.tags.map { .string($0) })), as: UTF8.self)
                let values: [SQLValue] = [
                    .text(device.app), .text(device.token), .text(device.environment), device.locale.sql,
                    device.appVersion.sql, device.userID.sql, .text(tags), Self.time(device.registeredAt),
                    Self.time(now), .integer(active ? 1 : 0), inactiveSince.map(Self.time) ?? .null,
                    .integer(AppVersionNumber.stored(device.appVersion)),
                ]
                try connection.query(
                    """
                    INSERT INTO devices (\(Self.deviceColumns), version_number)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (app, token) DO UPDATE SET environment = excluded.environment,
                        version_number = excluded.version_number,
                        locale = excluded.locale, app_version = excluded.app_version, user_id = excluded.user_id,
                        tags = excluded.tags, registered_at = excluded.registered_at, updated_at = excluded.updated_at,
                        active = excluded.active, inactive_since = excluded.inactive_since
                    """, values)
                try connection.query(
                    "UPDATE devices SET time_zone = ?, quiet_start = ?, quiet_end = ? WHERE app = ? AND token = ?",
                    [
                        device.timeZone.sql, (device.quietHours?.start).sql, (device.quietHours?.end).sql,
                        .text(device.app), .text(device.token),
                    ])
                try connection.query(
                    "DELETE FROM device_tags WHERE app = ? AND token = ?", [.text(device.app), .text(device.token)])
                for tag in Set(device.tags) {
                    try connection.query(
                        "INSERT INTO device_tags (app, tag, token) VALUES (?, ?, ?)",
                        [.text(device.app), .text(tag), .text(device.token)])
                }
                return DeviceRecord(registration: device, active: active, inactiveSince: inactiveSince, updatedAt: now)
            }
        }
    }

    public func forget(app: String, token: String) throws(StoreError) -> Bool {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Bool in
                try connection.query("DELETE FROM device_tags WHERE app = ? AND token = ?", [.text(app), .text(token)])
                return try connection.run(
                    "DELETE FROM devices WHERE app = ? AND token = ?", [.text(app), .text(token)]
                )
                .changes > 0
            }
        }
    }

    public func device(app: String, token: String) throws(StoreError) -> DeviceRecord? {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.deviceColumns), time_zone, quiet_start, quiet_end FROM devices WHERE app = ? AND token = ?",
                [.text(app), .text(token)]
            ).first.map(Self.device)
        }
    }

    public func tokens(app: String, audience: Audience, limit: Int) throws(StoreError) -> [String] {
        try read { connection throws(StoreError) in
            switch audience {
            case .tokens(let tokens): return Array(tokens.prefix(limit))
            case .user(let user):
                return try connection.query(
                    "SELECT token FROM devices WHERE app = ? AND user_id = ? AND active = 1 ORDER BY token LIMIT ?",
                    [.text(app), .text(user), .integer(Int64(limit))]
                ).compactMap { $0[0].text }
            case .tag(let tag):
                return try connection.query(
                    """
                    SELECT t.token FROM device_tags t JOIN devices d ON d.app = t.app AND d.token = t.token
                    WHERE t.app = ? AND t.tag = ? AND d.active = 1 ORDER BY t.token LIMIT ?
                    """, [.text(app), .text(tag), .integer(Int64(limit))]
                ).compactMap { $0[0].text }
            case .segment(let segment):
                let compiled = SegmentSQL(segment, app: app, now: Date(), dialect: dialect)
                return try connection.query(
                    "SELECT d.token FROM audience d WHERE d.app = ? AND " + compiled.condition
                        + " ORDER BY d.token LIMIT ?", [.text(app)] + compiled.values + [.integer(Int64(limit))]
                ).compactMap { $0[0].text }
            }
        }
    }

    public func isInactive(app: String, token: String) throws(StoreError) -> Bool {
        try read { connection throws(StoreError) in
            !(try connection.query(
                "SELECT 1 FROM devices WHERE app = ? AND token = ? AND active = 0", [.text(app), .text(token)]
            ).isEmpty)
        }
    }

    public func markInactive(app: String, token: String, since: Date, now: Date) throws(StoreError) -> Bool {
        try with { connection throws(StoreError) in
            try Self.markInactive(app: app, token: token, since: since, now: now, connection)
        }
    }

    static func markInactive(
        app: String, token: String, since: Date, now: Date, _ connection: any SQLConnection
    ) throws(StoreError) -> Bool {
        try connection.run(
            """
            UPDATE devices SET active = 0, inactive_since = ?, updated_at = ?
            WHERE app = ? AND token = ? AND registered_at < ? AND (active = 1 OR inactive_since < ?)
            """,
            [Self.time(since), Self.time(now), .text(app), .text(token), Self.time(since), Self.time(since)]
        ).changes > 0
    }
}
