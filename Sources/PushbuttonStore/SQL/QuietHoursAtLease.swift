import Foundation
import PushbuttonSupport

/// Quiet hours re-checked when a lease takes a recipient (issue 35, migration `60-quiet-hours-at-lease`). The
/// gateway holds a recipient whose send time falls in its device's quiet hours at intake; one queued outside
/// them but taken later (a throttled campaign spread over hours, a backlog, an APNs outage holding the queue)
/// is checked again here, at the lease's `now`, against the device's registration as it is then: inside the
/// window it is not leased but put back in a free batch of its own due at the window's end, counted `held`
/// (``QuietHoursHold``: the notification carries its app's window from intake).
///
/// In the lease's transaction, on the batches it holds (locked, PostgreSQL): no other process sees the
/// recipient until the hold is committed, and then only as a batch due later. Only recipients taken from a
/// free batch are checked; an expired lease's were decided when first leased (they may have been sent). A
/// lease without a notification that has quiet hours costs a look at each of its notifications' columns.
enum QuietHoursAtLease {
    /// The header columns a lease reads for quiet hours, after the frequency cap's.
    static let columns = "quiet_start, quiet_end, quiet_zone"
    /// Where they start in a lease's header columns.
    private static let first = 11

    /// Stores `spec`'s hold on its notification row (nothing for one never held).
    static func store(_ spec: NotificationSpec, _ connection: any SQLConnection) throws(StoreError) {
        guard let quiet = spec.quietHours else { return }
        try connection.query(
            "UPDATE notifications SET quiet_start = ?, quiet_end = ?, quiet_zone = ? WHERE id = ?",
            [
                .integer(Int64(quiet.start)), .integer(Int64(quiet.end)), quiet.defaultTimeZone.sql,
                .text(spec.id),
            ])
    }

    /// The hold in a lease's header columns of a notification (`nil`: never held).
    static func hold(in spec: [SQLValue]?) -> QuietHoursHold? {
        guard let spec, spec.count > first + 2, let start = spec[first].integer, let end = spec[first + 1].integer
        else { return nil }
        return QuietHoursHold(start: Int(start), end: Int(end), defaultTimeZone: spec[first + 2].text)
    }

    /// Splits the leased `rows` into those to send and those held (put back, due at their window's end);
    /// `specs` are the rows' notifications' header columns.
    static func apply(
        _ rows: [LeasedRow], specs: [String: [SQLValue]], now: Date, _ connection: any SQLConnection
    ) throws(StoreError) -> (sent: [LeasedRow], held: Int) {
        var holds: [String: QuietHoursHold] = [:]
        // Per notification, not per row: a lease of notifications without quiet hours stops here.
        for (notification, spec) in specs {
            if let hold = hold(in: spec) { holds[notification] = hold }
        }
        guard !holds.isEmpty else { return (rows, 0) }
        var tokens: [String: Set<String>] = [:]
        for row in rows where row.wasQueued {
            guard holds[row.notification] != nil, let app = specs[row.notification]?[0].text else { continue }
            tokens[app, default: []].insert(row.token)
        }
        guard !tokens.isEmpty else { return (rows, 0) }
        var devices: [String: [String: DeviceTimes]] = [:]
        for (app, set) in tokens { devices[app] = try times(app: app, tokens: set.sorted(), connection) }
        var zones: [String: TimeZone] = [:]
        func zone(_ name: String?) -> TimeZone {
            let name = name ?? "UTC"
            if let known = zones[name] { return known }
            let resolved = TimeZone(identifier: name) ?? TimeZone(identifier: "UTC") ?? .current
            zones[name] = resolved
            return resolved
        }
        // Each checked row's decision: nil (send now) or the end of its device's window. At one `now` it
        // depends only on the zone and the window: worked out once per pair, not per row (a calendar
        // conversion costs microseconds).
        var decided: [DecisionKey: Date?] = [:]
        var until: [Int64: Date] = [:]
        for row in rows where row.wasQueued {
            guard let hold = holds[row.notification], let app = specs[row.notification]?[0].text else { continue }
            let device = devices[app]?[row.token]
            var window = QuietWindow(start: hold.start, end: hold.end)
            if let start = device?.quietStart, let end = device?.quietEnd {
                window = QuietWindow(start: start, end: end)
            }
            let key = DecisionKey(zone: device?.timeZone ?? hold.defaultTimeZone, window: window)
            let end: Date?
            if let known = decided[key] {
                end = known
            } else {
                end = window.nextAllowed(after: now, in: zone(key.zone))
                decided[key] = end
            }
            if let end { until[row.id] = end }
        }
        guard !until.isEmpty else { return (rows, 0) }
        try putBack(rows, until: until, connection)
        return (rows.filter { until[$0.id] == nil }, until.count)
    }

    /// The registered zones and windows of those of `tokens` of `app` that registered either.
    private static func times(app: String, tokens: [String], _ connection: any SQLConnection) throws(StoreError)
        -> [String: DeviceTimes]
    {
        var found: [String: DeviceTimes] = [:]
        for start in stride(from: 0, to: tokens.count, by: SQLGatewayStore.rowsPerStatement) {
            var chunk = tokens[start..<min(start + SQLGatewayStore.rowsPerStatement, tokens.count)].map {
                SQLValue.text($0)
            }
            chunk += Array(repeating: chunk[chunk.count - 1], count: StatementShapes.padded(chunk.count) - chunk.count)
            for row in try connection.query(
                "SELECT token, time_zone, quiet_start, quiet_end FROM devices WHERE app = ? AND token IN ("
                    + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")",
                [.text(app)] + chunk)
            {
                guard let token = row[0].text, row[1] != .null || row[2] != .null else { continue }
                found[token] = DeviceTimes(
                    timeZone: row[1].text, quietStart: row[2].integer.map(Int.init),
                    quietEnd: row[3].integer.map(Int.init))
            }
        }
        return found
    }

    /// Rewrites each batch with held rows as runs of consecutive rows with one decision, covering its range:
    /// the runs to send stay held by the lease, each held run becomes a free batch due at its window's end
    /// (`held` = `quiet_hours`), its lease not counted.
    private static func putBack(_ rows: [LeasedRow], until: [Int64: Date], _ connection: any SQLConnection)
        throws(StoreError)
    {
        var byBatch: [Int64: [LeasedRow]] = [:]
        for row in rows { byBatch[row.batch, default: []].append(row) }
        for (batch, taken) in byBatch.sorted(by: { $0.key < $1.key })
        where taken.contains(where: { until[$0.id] != nil }) {
            guard
                let range = try connection.query(
                    "SELECT first_id, last_id FROM queue_batches WHERE id = ?", [.integer(batch)]
                ).first, let low = range[0].integer, let high = range[1].integer
            else { continue }
            let sorted = taken.sorted { $0.id < $1.id }
            // Runs: (first id, last id, size, decision), contiguous from the batch's first id to its last.
            var runs: [(first: Int64, last: Int64, size: Int, until: Date?)] = []
            for row in sorted {
                let decision = until[row.id]
                if let last = runs.last, last.until == decision {
                    runs[runs.count - 1].last = row.id
                    runs[runs.count - 1].size += 1
                } else {
                    let first = runs.last.map { $0.last + 1 } ?? low
                    runs.append((first, row.id, 1, decision))
                }
            }
            runs[runs.count - 1].last = high
            // The other runs first, copied from the batch row before it changes.
            for run in runs.dropFirst() {
                if let due = run.until {
                    try connection.query(
                        """
                        INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_token,
                            lease_until, leases, held, throttled)
                        SELECT notification_id, ?, ?, ?, CAST(? AS DOUBLE PRECISION), NULL, NULL, leases - 1, ?, throttled
                        FROM queue_batches WHERE id = ?
                        """,
                        [
                            .integer(run.first), .integer(run.last), .integer(Int64(run.size)),
                            SQLGatewayStore.time(due), .text(heldReason), .integer(batch),
                        ])
                } else {
                    try connection.query(
                        """
                        INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_token,
                            lease_until, leases, held, throttled)
                        SELECT notification_id, ?, ?, ?, due_at, lease_token, lease_until, leases, held, throttled
                        FROM queue_batches WHERE id = ?
                        """, [.integer(run.first), .integer(run.last), .integer(Int64(run.size)), .integer(batch)])
                }
            }
            let run = runs[0]
            if let due = run.until {
                try connection.query(
                    """
                    UPDATE queue_batches SET first_id = ?, last_id = ?, size = ?, due_at = CAST(? AS DOUBLE PRECISION),
                        lease_token = NULL,
                        lease_until = NULL, leases = leases - 1, held = ? WHERE id = ?
                    """,
                    [
                        .integer(run.first), .integer(run.last), .integer(Int64(run.size)), SQLGatewayStore.time(due),
                        .text(heldReason), .integer(batch),
                    ])
            } else {
                try connection.query(
                    "UPDATE queue_batches SET first_id = ?, last_id = ?, size = ? WHERE id = ?",
                    [.integer(run.first), .integer(run.last), .integer(Int64(run.size)), .integer(batch)])
            }
        }
    }

    /// A device's zone name (`nil`: UTC) and window: what decides whether it is inside its quiet hours now.
    private struct DecisionKey: Hashable {
        var zone: String?
        var window: QuietWindow
    }

    /// The reason a held batch carries (counted `held`), as intake's.
    static let heldReason = "quiet_hours"
}
