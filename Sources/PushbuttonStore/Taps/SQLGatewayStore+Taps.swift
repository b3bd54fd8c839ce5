import Foundation
import Pushbutton

extension SQLGatewayStore: TapStore {
    private static func seconds(_ date: Date) -> SQLValue { .real(date.timeIntervalSince1970) }

    /// Taps per multi-row INSERT (14 values each, well under either database's limit on bound values).
    static let tapsPerStatement = 200

    /// Stores the batch in one transaction, 200 taps per INSERT; a known event id inserts nothing.
    public func record(taps: [TapRecord], now: Date) throws(StoreError) -> TapBatchResult {
        guard !taps.isEmpty else { return TapBatchResult(accepted: 0, duplicates: 0) }
        return try pool.with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> TapBatchResult in
                var accepted = 0
                var start = 0
                while start < taps.count {
                    let end = min(start + Self.tapsPerStatement, taps.count)
                    var values: [SQLValue] = []
                    values.reserveCapacity((end - start) * 14)
                    for tap in taps[start..<end] {
                        values += [
                            .text(tap.app), .text(tap.eventID), .text(tap.token), .text(tap.notificationID),
                            tap.campaignID.sql, .text(tap.category), .text(tap.response.rawValue), tap.button.sql,
                            .integer(tap.foreground ? 1 : 0), tap.latencyMilliseconds.sql, tap.reply.sql,
                            Self.seconds(tap.respondedAt), Self.seconds(now), tap.variant.sql,
                        ]
                    }
                    // A repeated id, stored before or earlier in the batch, inserts nothing: `changes` counts the new.
                    let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    accepted += try connection.run(
                        """
                        INSERT INTO tap_events (app, event_id, token, notification_id, campaign_id, category, response,
                            button, foreground, latency_ms, reply, responded_at, received_at, variant)
                        VALUES \(Array(repeating: row, count: end - start).joined(separator: ", "))
                        ON CONFLICT (app, event_id) DO NOTHING
                        """, values
                    ).changes
                    start = end
                }
                return TapBatchResult(accepted: accepted, duplicates: taps.count - accepted)
            }
        }
    }

    /// Notes categories of notifications without one, in one transaction.
    public func categorize(
        app: String, limit: Int, _ categoryOf: (NotificationSpec.Kind, [UInt8]) -> String?
    ) throws(StoreError) -> Int {
        try pool.with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Int in
                let rows = try connection.query(
                    """
                    SELECT n.id, n.kind, n.request FROM notifications n
                    WHERE n.app = ? AND NOT EXISTS (
                        SELECT 1 FROM notification_categories c WHERE c.notification_id = n.id)
                    LIMIT ?
                    """, [.text(app), .integer(Int64(max(0, limit)))])
                for row in rows {
                    guard let id = row[0].text else { continue }
                    let kind = NotificationSpec.Kind(rawValue: row[1].text ?? "") ?? .notification
                    try connection.query(
                        """
                        INSERT INTO notification_categories (notification_id, app, category) VALUES (?, ?, ?)
                        ON CONFLICT (notification_id) DO NOTHING
                        """, [.text(id), .text(app), categoryOf(kind, row[2].blob ?? []).sql])
                }
                return rows.count
            }
        }
    }

    /// The conditions (and their values) that select the scope's deliveries (`d`) and joined taps (`t`).
    private static func filters(_ query: StatsQuery) -> (deliveries: String, taps: String, values: [SQLValue]) {
        let joined =
            "EXISTS (SELECT 1 FROM notifications n WHERE n.id = t.notification_id AND n.app = t.app)"
        switch query.scope {
        case .app:
            return ("d.app = ?", "t.app = ? AND \(joined)", [.text(query.app)])
        case .notification(let id):
            return (
                "d.app = ? AND d.notification_id = ?", "t.app = ? AND t.notification_id = ? AND \(joined)",
                [.text(query.app), .text(id)]
            )
        case .category(let category):
            let inCategory =
                "SELECT c.notification_id FROM notification_categories c WHERE c.app = ? AND c.category = ?"
            return (
                "d.app = ? AND d.notification_id IN (\(inCategory))",
                "t.app = ? AND t.notification_id IN (\(inCategory))",
                [.text(query.app), .text(query.app), .text(category)]
            )
        }
    }

    /// ` AND column >= ? AND column < ?` for the window's ends that are given.
    private static func window(_ column: String, _ query: StatsQuery) -> (String, [SQLValue]) {
        var sql = ""
        var values: [SQLValue] = []
        if let from = query.from {
            sql += " AND \(column) >= ?"
            values.append(seconds(from))
        }
        if let to = query.to {
            sql += " AND \(column) < ?"
            values.append(seconds(to))
        }
        return (sql, values)
    }

    /// Counts with a few aggregate queries on a reading connection; the percentiles are read by rank.
    public func statistics(_ query: StatsQuery) throws(StoreError) -> TapStatistics {
        let (deliveries, taps, scopeValues) = Self.filters(query)
        let (finished, finishedValues) = Self.window("d.finished_at", query)
        let (responded, respondedValues) = Self.window("t.responded_at", query)
        return try readers.with { connection throws(StoreError) -> TapStatistics in
            var statistics = TapStatistics()
            for row in try connection.query(
                """
                SELECT d.state, COUNT(*), SUM(CASE WHEN d.status = 410 THEN 1 ELSE 0 END) FROM deliveries d
                WHERE \(deliveries)\(finished) GROUP BY d.state
                """, scopeValues + finishedValues)
            {
                guard let state = DeliveryState(rawValue: row[0].text ?? ""), state.isFinal else { continue }
                statistics.deliveries[state] = Int(row[1].integer ?? 0)
                statistics.deadTokens += Int(row[2].integer ?? 0)
            }
            for row in try connection.query(
                """
                SELECT t.response, t.button, t.foreground, COUNT(*) FROM tap_events t
                WHERE \(taps)\(responded) GROUP BY t.response, t.button, t.foreground
                """, scopeValues + respondedValues)
            {
                let count = Int(row[3].integer ?? 0)
                switch TapRecord.Response(rawValue: row[0].text ?? "") {
                case .button: statistics.buttons[row[1].text ?? "", default: 0] += count
                case .body: statistics.body += count
                case .dismiss: statistics.dismissals += count
                case nil: continue
                }
                if row[2].integer == 1 { statistics.foreground += count } else { statistics.background += count }
            }
            // Percentiles by rank, read with OFFSET from the sorted latencies rather than all of them.
            let timed =
                "FROM tap_events t WHERE \(taps)\(responded) AND t.latency_ms IS NOT NULL AND t.response <> 'dismiss'"
            let values = scopeValues + respondedValues
            let count = Int(try connection.query("SELECT COUNT(*) \(timed)", values).first?[0].integer ?? 0)
            guard count > 0 else { return statistics }
            func latency(rank: Int) throws(StoreError) -> Double {
                try connection.query(
                    "SELECT t.latency_ms \(timed) ORDER BY t.latency_ms LIMIT 1 OFFSET ?",
                    values + [.integer(Int64(rank - 1))]
                ).first?[0].real ?? 0
            }
            statistics.medianLatencyMilliseconds =
                count % 2 == 1
                ? try latency(rank: count / 2 + 1) : (try latency(rank: count / 2) + latency(rank: count / 2 + 1)) / 2
            statistics.p90LatencyMilliseconds = try latency(rank: (count * 9 + 9) / 10)
            return statistics
        }
    }
}

extension SQLGatewayStore: DeviceTagStore {
    /// Rewrites the device's tags and its tag index in one transaction.
    public func updateTags(app: String, token: String, add: [String], remove: [String], now: Date)
        throws(StoreError) -> DeviceRecord?
    {
        let found = try pool.with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Bool in
                guard
                    let stored = try connection.query(
                        "SELECT tags FROM devices WHERE app = ? AND token = ?", [.text(app), .text(token)]
                    ).first
                else { return false }
                let current =
                    (try? JSONParser.parse(stored[0].text ?? "[]"))?.arrayValue?.compactMap(\.stringValue) ?? []
                var tags = current.filter { !remove.contains($0) }
                for tag in add where !tags.contains(tag) && !remove.contains(tag) { tags.append(tag) }
                let text = String(decoding: JSONWriter.compact(.array(tags.map { .string($0) })), as: UTF8.self)
                try connection.query(
                    "UPDATE devices SET tags = ?, updated_at = ? WHERE app = ? AND token = ?",
                    [.text(text), Self.seconds(now), .text(app), .text(token)])
                try connection.query("DELETE FROM device_tags WHERE app = ? AND token = ?", [.text(app), .text(token)])
                for tag in Set(tags) {
                    try connection.query(
                        "INSERT INTO device_tags (app, tag, token) VALUES (?, ?, ?)",
                        [.text(app), .text(tag), .text(token)])
                }
                return true
            }
        }
        return found ? try device(app: app, token: token) : nil
    }
}
