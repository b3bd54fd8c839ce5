import Foundation

/// Frequency caps at lease time (issue 35, migration `50-frequency-cap`). Every recipient a lease takes of a
/// notification of an app with a cap is recorded in `device_sends` (one row per recipient, at the lease's
/// time), and a recipient held to the cap whose device already has `max` sends in the window is skipped with
/// reason `frequency_cap` instead of being sent. Deciding at the lease counts every send made since the
/// campaign was created; a recorded send whose recipient then failed or was rejected does not count.
///
/// Exactly once across processes (PostgreSQL): the lease takes a transaction-scoped advisory lock per
/// device, in key order, after its batches (which it never waits for: they are skipped when locked), so two
/// leases holding recipients of one device decide one after the other, the second seeing the first's sends.
/// SQLite has one writer at a time.
enum FrequencyCaps {
    /// The header columns a lease reads for the cap, after the seven of the notification's headers and `wake_on_outcome`.
    static let columns = "cap_max, cap_seconds, cap_held"

    /// Stores `spec`'s cap on its notification row (nothing for an app without one).
    static func store(_ spec: NotificationSpec, _ connection: any SQLConnection) throws(StoreError) {
        guard let cap = spec.frequencyCap else { return }
        try connection.query(
            "UPDATE notifications SET cap_max = ?, cap_seconds = ?, cap_held = ? WHERE id = ?",
            [
                .integer(Int64(cap.max)), .real(cap.window), .integer(spec.heldToFrequencyCap ? 1 : 0),
                .text(spec.id),
            ])
    }

    /// The cap in a lease's header columns of a notification (`nil`: its app has none), and whether its
    /// recipients are held to it.
    static func cap(in spec: [SQLValue]?) -> (cap: FrequencyCap, held: Bool)? {
        guard let spec, spec.count > 10, let max = spec[8].integer, let window = spec[9].real else { return nil }
        return (FrequencyCap(max: Int(max), window: window), spec[10].integer == 1)
    }

    /// Splits the leased `rows` into those to send and those over their device's cap (marked skipped here),
    /// and records the sends of apps with a cap. `specs` are the rows' notifications' header columns.
    static func apply(
        _ rows: [LeasedRow], specs: [String: [SQLValue]], now: Date, dialect: SQLDialect,
        _ connection: any SQLConnection
    ) throws(StoreError) -> (sent: [LeasedRow], skipped: [LeasedRow]) {
        var caps: [String: (cap: FrequencyCap, held: Bool)] = [:]
        // Per notification (`specs` has one entry each), not per row: a lease without capped apps costs a
        // look at each of its notifications' columns, nothing more.
        for (notification, spec) in specs {
            if let cap = cap(in: spec) { caps[notification] = cap }
        }
        guard !caps.isEmpty else { return (rows, []) }
        // The devices of the capped rows, by app.
        var devices: [String: Set<String>] = [:]
        var windows: [String: TimeInterval] = [:]
        for row in rows {
            guard let cap = caps[row.notification], let app = specs[row.notification]?[0].text else { continue }
            devices[app, default: []].insert(row.token)
            windows[app] = max(windows[app] ?? 0, cap.cap.window)
        }
        if dialect == .postgres { try lock(devices, connection) }
        let leasedIDs = Set(rows.map(\.id))
        // Each device's recorded sends in its app's widest window (not those of the rows leased now: an
        // expired lease's, or a release's given back), then the rows in order, each counted as it goes.
        var sends: [String: [String: [Date]]] = [:]
        for (app, tokens) in devices {
            sends[app] = try recorded(
                app: app, tokens: tokens.sorted(), since: now - (windows[app] ?? 0), excluding: leasedIDs,
                connection)
        }
        var sent: [LeasedRow] = []
        var skipped: [LeasedRow] = []
        var records: [SQLValue] = []
        sent.reserveCapacity(rows.count)
        for row in rows {
            guard let cap = caps[row.notification], let app = specs[row.notification]?[0].text else {
                sent.append(row)
                continue
            }
            let times = sends[app]?[row.token] ?? []
            // Re-leased rows (an expired lease's) were decided when first leased.
            if cap.held, row.wasQueued, isOverCap(times, cap: cap.cap, now: now) {
                skipped.append(row)
                continue
            }
            sends[app, default: [:]][row.token, default: []].append(now)
            sent.append(row)
            records += [.integer(row.id), .text(app), .text(row.token), SQLGatewayStore.time(now)]
        }
        for chunk in StatementShapes.chunks(records.count / 4) {
            try connection.query(
                "INSERT INTO device_sends (delivery_id, app, token, sent_at) VALUES "
                    + Array(repeating: "(?, ?, ?, ?)", count: chunk.count).joined(separator: ", ")
                    + " ON CONFLICT (delivery_id) DO NOTHING",
                Array(records[4 * chunk.lowerBound..<4 * chunk.upperBound]))
        }
        try markSkipped(skipped, now: now, connection)
        return (sent, skipped)
    }

    /// **A device is over its cap** when `cap.max` of its sends (`times`) fall within the window before `now`.
    static func isOverCap(_ times: [Date], cap: FrequencyCap, now: Date) -> Bool {
        times.lazy.filter { $0 > now - cap.window }.count >= cap.max
    }

    /// Takes an advisory lock (to the end of the transaction) per device, in key order: no two leases wait
    /// on each other for them.
    private static func lock(_ devices: [String: Set<String>], _ connection: any SQLConnection) throws(StoreError) {
        var keys = Set<Int64>()
        for (app, tokens) in devices { for token in tokens { keys.insert(lockKey(app: app, token: token)) } }
        let sorted = keys.sorted()
        for start in stride(from: 0, to: sorted.count, by: SQLGatewayStore.rowsPerStatement) {
            let chunk = sorted[start..<min(start + SQLGatewayStore.rowsPerStatement, sorted.count)]
            // unnest yields the array in order; the locks are taken as the rows are produced.
            try connection.query(
                "SELECT pg_advisory_xact_lock(k) FROM unnest(CAST(? AS BIGINT[])) AS u(k)",
                [.text("{" + chunk.map(String.init).joined(separator: ",") + "}")])
        }
    }

    /// A device's advisory lock key: FNV-1a of its app and token (a collision only makes two devices wait
    /// for each other), kept clear of the migrations' lock.
    static func lockKey(app: String, token: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in app.utf8 + [0] + token.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let key = Int64(bitPattern: hash)
        return key == StoreMigrations.advisoryLock ? key &+ 1 : key
    }

    /// The send times recorded for `tokens` of `app` after `since` whose recipients were not rejected or
    /// failed (and are not among `excluding`), by token; those before `since` are removed on the way.
    private static func recorded(
        app: String, tokens: [String], since: Date, excluding: Set<Int64>, _ connection: any SQLConnection
    ) throws(StoreError) -> [String: [Date]] {
        var sends: [String: [Date]] = [:]
        for start in stride(from: 0, to: tokens.count, by: SQLGatewayStore.rowsPerStatement) {
            var chunk = tokens[start..<min(start + SQLGatewayStore.rowsPerStatement, tokens.count)].map {
                SQLValue.text($0)
            }
            chunk += Array(repeating: chunk[chunk.count - 1], count: StatementShapes.padded(chunk.count) - chunk.count)
            let list = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            // Sends out of every window: dead weight in the device's index range.
            try connection.query(
                "DELETE FROM device_sends WHERE app = ? AND token IN (\(list)) AND sent_at <= ?",
                [.text(app)] + chunk + [SQLGatewayStore.time(since)])
            for row in try connection.query(
                """
                SELECT s.token, s.delivery_id, s.sent_at FROM device_sends s JOIN deliveries d ON d.id = s.delivery_id
                WHERE s.app = ? AND s.token IN (\(list)) AND s.sent_at > ? AND d.state IN ('queued', 'leased', 'delivered')
                """, [.text(app)] + chunk + [SQLGatewayStore.time(since)])
            {
                guard let token = row[0].text, let id = row[1].integer, !excluding.contains(id),
                    let at = SQLGatewayStore.date(row[2])
                else { continue }
                sends[token, default: []].append(at)
            }
        }
        return sends
    }

    /// Marks `rows` skipped over the cap.
    private static func markSkipped(_ rows: [LeasedRow], now: Date, _ connection: any SQLConnection)
        throws(StoreError)
    {
        for start in stride(from: 0, to: rows.count, by: SQLGatewayStore.rowsPerStatement) {
            var ids = rows[start..<min(start + SQLGatewayStore.rowsPerStatement, rows.count)].map {
                SQLValue.integer($0.id)
            }
            ids += Array(repeating: ids[ids.count - 1], count: StatementShapes.padded(ids.count) - ids.count)
            try connection.query(
                "UPDATE deliveries SET state = 'skipped', reason = ?, finished_at = ? WHERE id IN ("
                    + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")",
                [.text(FrequencyCap.skippedReason), SQLGatewayStore.time(now)] + ids)
        }
    }
}
