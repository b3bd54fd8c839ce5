import Foundation

/// When recipients are sent (issue 35): a notification's `send_at` and a campaign's rate stored at intake, the
/// time the next queued recipient comes due (the workers' idle wait ends then), a scheduled notification
/// cancelled, and the counts of what waits.
extension SQLGatewayStore {
    /// Whether any of `deliveries` has a due time or a hold of its own: its batches are then made by due time.
    static func timesOwnDue(_ deliveries: ArraySlice<NewDelivery>) -> Bool {
        deliveries.contains { $0.dueAt != nil || $0.heldBecause != nil }
    }

    /// Stores a new notification's send time and rate (nothing for one sent at once, unthrottled): its row's
    /// columns, and a throttled campaign's rate row, its first slot at its send time.
    static func storeTiming(of spec: NotificationSpec, _ connection: any SQLConnection) throws(StoreError) {
        try FrequencyCaps.store(spec, connection)
        try QuietHoursAtLease.store(spec, connection)
        guard spec.sendAt != nil || spec.throttlePerMinute != nil else { return }
        try connection.query(
            "UPDATE notifications SET send_at = ?, throttle_per_minute = ? WHERE id = ?",
            [spec.sendAt.map(time) ?? .null, spec.throttlePerMinute.sql, .text(spec.id)])
        if let perMinute = spec.throttlePerMinute {
            try connection.query(
                "INSERT INTO campaign_rates (notification_id, per_minute, next_slot) VALUES (?, ?, ?)",
                [.text(spec.id), .integer(Int64(perMinute)), time(spec.sendAt ?? spec.createdAt)])
        }
    }

    /// Marks the new batches of a throttled notification, so a lease asks for its rate (and only then).
    static func markThrottled(_ spec: NotificationSpec, _ connection: any SQLConnection) throws(StoreError) {
        guard spec.throttlePerMinute != nil else { return }
        try connection.query(
            "UPDATE queue_batches SET throttled = 1 WHERE notification_id = ? AND throttled IS NULL", [.text(spec.id)])
    }

    /// A throttled campaign's rate and next free slot, its row locked (PostgreSQL) to the end of the lease's
    /// transaction; `nil` when it has none.
    func rate(of notification: String, _ connection: any SQLConnection) throws(StoreError)
        -> (perMinute: Int, nextSlot: Date)?
    {
        guard
            let row = try connection.query(
                "SELECT per_minute, next_slot FROM campaign_rates WHERE notification_id = ?" + dialect.lockRow,
                [.text(notification)]
            ).first, let perMinute = row[0].integer, let next = Self.date(row[1])
        else { return nil }
        return (Int(perMinute), next)
    }

    /// The earliest free batch's due time or held batch's lease end (see ``GatewayStore/nextDue(now:)``).
    public func nextDue(now: Date) throws(StoreError) -> Date? {
        try read { connection throws(StoreError) in
            let row = try connection.query(
                """
                SELECT (SELECT MIN(due_at) FROM queue_batches WHERE lease_token IS NULL),
                    (SELECT MIN(lease_until) FROM queue_batches WHERE lease_token IS NOT NULL)
                """
            ).first
            let times = [row.flatMap { Self.date($0[0]) }, row.flatMap { Self.date($0[1]) }].compactMap { $0 }
            return times.min()
        }
    }

    /// Cancels a single notification's recipients no lease holds (see ``GatewayStore/cancel(notification:now:)``).
    public func cancel(notification id: String, now: Date) throws(StoreError) -> NotificationRecord? {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> NotificationRecord? in
                guard
                    let kind = try connection.query(
                        "SELECT kind FROM notifications WHERE id = ?" + dialect.lockRow, [.text(id)]
                    ).first?[0].text, kind == NotificationSpec.Kind.notification.rawValue
                else { return nil }
                try connection.query("UPDATE notifications SET state = 'cancelled' WHERE id = ?", [.text(id)])
                _ = try QueueBatches.cancel(id, now: now, connection)
                return try record(id: id, limit: 0, after: 0, connection)
            }
        }
    }

    /// What of a notification waits now, from its free batches not yet due (see ``GatewayStore/schedule(of:now:)``).
    public func schedule(of id: String, now: Date) throws(StoreError) -> ScheduleCounts {
        try read { connection throws(StoreError) in
            var counts = ScheduleCounts()
            if let row = try connection.query(
                "SELECT send_at, throttle_per_minute FROM notifications WHERE id = ?", [.text(id)]
            ).first {
                counts.sendAt = Self.date(row[0])
                counts.throttlePerMinute = row[1].integer.map(Int.init)
            }
            // Free batches not due yet, by why they wait (their recipients without an outcome).
            for row in try connection.query(
                """
                SELECT b.held, COUNT(*) FROM queue_batches b JOIN deliveries d
                    ON d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id
                WHERE b.notification_id = ? AND b.lease_token IS NULL AND b.due_at > ? AND d.state = 'queued'
                GROUP BY b.held
                """, [.text(id), Self.time(now)])
            {
                let count = Int(row[1].integer ?? 0)
                switch row[0].text {
                case SendRate.throttled: counts.throttled += count
                case nil: counts.scheduled += count
                default: counts.held += count
                }
            }
            if let perMinute = counts.throttlePerMinute,
                let next = try connection.query(
                    "SELECT next_slot FROM campaign_rates WHERE notification_id = ?", [.text(id)]
                ).first.flatMap({ Self.date($0[0]) })
            {
                // A campaign's queued recipients are its tallies' (a few rows per thousand recipients), not a
                // join over each of its queued rows (seconds at 1,000,000).
                let remaining = try CampaignTallies.counts(of: id, connection)[.queued] ?? 0
                if remaining > 0 {
                    counts.expectedFinish = SendRate.expectedFinish(
                        remaining: remaining, nextSlot: max(next, counts.sendAt ?? next), perMinute: perMinute,
                        now: now)
                }
            }
            return counts
        }
    }

    /// The registered times of `tokens`, a statement per chunk (see ``GatewayStore/deviceTimes(app:tokens:)``).
    public func deviceTimes(app: String, tokens: [String]) throws(StoreError) -> [String: DeviceTimes] {
        var zones: [String: DeviceTimes] = [:]
        try read { connection throws(StoreError) in
            for chunk in StatementShapes.chunks(tokens.count) {
                var values: [SQLValue] = [.text(app)]
                values += tokens[chunk].map { SQLValue.text($0) }
                for row in try connection.query(
                    "SELECT token, time_zone, quiet_start, quiet_end FROM devices WHERE app = ? "
                        + "AND (time_zone IS NOT NULL OR quiet_start IS NOT NULL) AND token IN ("
                        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")", values)
                {
                    guard let token = row[0].text else { continue }
                    zones[token] = DeviceTimes(
                        timeZone: row[1].text, quietStart: row[2].integer.map(Int.init),
                        quietEnd: row[3].integer.map(Int.init))
                }
            }
        }
        return zones
    }
}
