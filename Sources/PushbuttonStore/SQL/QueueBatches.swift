import Foundation

/// The queue's due work as ranges of recipients' row ids (`queue_batches`, one row per up to ``rows``
/// recipients of one notification, written at intake), and the leases on them: a lease takes whole batches
/// and reads their recipients by range on `deliveries_notification`, writing nothing to a recipient's row;
/// the outcome writes it once, changing no indexed column (PostgreSQL updates it in place, HOT, in the room
/// the fillfactor leaves). Nothing walks the dead index entries of everything leased before.
///
/// A batch is free (`lease_token` NULL, due at `due_at`) or held by one lease until `lease_until`; an
/// expired hold is due again, to the next lease, with the same recipients (those still without an outcome).
/// A recipient is `queued` in its row until its outcome; it reads as `leased` while its batch is held (an
/// expired hold too, until another lease takes it, as a row's expired lease did). An outcome counts only
/// while its lease still holds the recipient's batch (locked in the outcome's transaction); the outcome that
/// leaves a batch nothing to send removes it.
///
/// Rows `leased` in their own column come from before migration 9q (held by a `migrated` batch until their
/// lease ends) and are taken and finished as queued ones.
///
/// Lock order, on PostgreSQL: batches first, then recipients' rows (lease, outcome, release and cancel alike),
/// so no two of them wait on each other.
enum QueueBatches {
    /// Recipients per batch at intake: a default lease (500) takes one, the benchmark's (1,000) two.
    static let rows = 500

    /// The batch columns a lease reads: id, notification_id, first_id, last_id, size, lease_token, leases,
    /// throttled (1 for a campaign with a ``SendRate``).
    private static let columns = "id, notification_id, first_id, last_id, size, lease_token, leases, throttled"

    /// Makes batches of the queued recipients of `notification` with an id from `first` on (a page's or a
    /// notification's, just inserted in this transaction: no other row of it is there), due at `due`: from
    /// their `ids` when known (PostgreSQL, with no read of the rows; a recipient skipped at intake in a
    /// batch is passed over by the lease), else read back (an SQLite page, in process). With `leasedTo` (ids
    /// known, no due times of their own), the batches are made held by that lease (a lease at intake,
    /// ``LeaseHandOff``), taken once.
    static func create(
        notification: String, from first: Int64, ids: [Int64]?, due: Date, ownDue: Bool = false,
        leasedTo lease: (token: String, until: Date)? = nil, _ connection: any SQLConnection
    ) throws(StoreError) {
        guard lease == nil || (ids != nil && !ownDue) else {
            throw StoreError(.inconsistent, "a lease at intake needs the rows' ids", context: "queue_batches")
        }
        if ownDue {
            try createByDueTime(notification: notification, from: first, connection)
            return
        }
        if let ids {
            let sorted = ids.sorted()
            var values: [SQLValue] = []
            var start = 0
            while start < sorted.count {
                let end = min(start + rows, sorted.count)
                values += [
                    .text(notification), .integer(sorted[start]), .integer(sorted[end - 1]),
                    .integer(Int64(end - start)), SQLGatewayStore.time(due),
                ]
                if let lease { values += [.text(lease.token), SQLGatewayStore.time(lease.until), .integer(1)] }
                start = end
            }
            let (columns, row) =
                lease == nil
                ? ("", "(?, ?, ?, ?, ?)") : (", lease_token, lease_until, leases", "(?, ?, ?, ?, ?, ?, ?, ?)")
            let width = lease == nil ? 5 : 8
            for chunk in StatementShapes.chunks(values.count / width) {
                try connection.query(
                    "INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at\(columns)) VALUES "
                        + Array(repeating: row, count: chunk.count).joined(separator: ", "),
                    Array(values[width * chunk.lowerBound..<width * chunk.upperBound]))
            }
            return
        }
        try connection.query(
            """
            INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at)
            SELECT notification_id, MIN(id), MAX(id), COUNT(*), ? FROM (
                SELECT notification_id, id, (ROW_NUMBER() OVER (ORDER BY id) - 1) / \(rows) AS chunk
                FROM deliveries WHERE notification_id = ? AND id >= ? AND state = 'queued') AS page
            GROUP BY notification_id, chunk
            """, [SQLGatewayStore.time(due), .text(notification), .integer(first)])
    }

    /// Makes batches of the queued recipients of `notification` from `first` on whose rows carry their own
    /// due times (local-time sends, quiet-hours holds): runs of consecutive ids with one due time and one held
    /// reason, up to ``rows`` each, so no two batches' ranges overlap and each comes due at its own time.
    private static func createByDueTime(notification: String, from first: Int64, _ connection: any SQLConnection)
        throws(StoreError)
    {
        try connection.query(
            """
            INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, held)
            SELECT notification_id, MIN(id), MAX(id), COUNT(*), due_at, reason FROM (
                SELECT notification_id, id, due_at, reason, island,
                    (ROW_NUMBER() OVER (PARTITION BY due_at, reason, island ORDER BY id) - 1) / \(rows) AS chunk
                FROM (
                    SELECT notification_id, id, due_at, reason,
                        ROW_NUMBER() OVER (ORDER BY id)
                            - ROW_NUMBER() OVER (PARTITION BY due_at, reason ORDER BY id) AS island
                    FROM deliveries WHERE notification_id = ? AND id >= ? AND state = 'queued') AS runs) AS page
            GROUP BY notification_id, due_at, reason, island, chunk
            """, [.text(notification), .integer(first)])
    }

    /// Leases up to `limit` due recipients under `token` until `until`: whole batches in due order (at least
    /// one; the last split when it holds more than the rest of the limit) and their recipients without an
    /// outcome, in lease order.
    static func lease(
        limit: Int, token: String, until: Date, now: Date, dialect: SQLDialect, excludingApps: Set<String> = [],
        rate: (String) throws(StoreError) -> (perMinute: Int, nextSlot: Date)? = { _ in nil },
        _ connection: any SQLConnection
    ) throws(StoreError) -> [LeasedRow] {
        var leased: [LeasedRow] = []
        leased.reserveCapacity(limit)
        let time = SQLGatewayStore.time(now)
        // PostgreSQL skips batches another lease holds; SQLite has one writer at a time.
        let lock = dialect.skipLocked
        // Apps whose APNs cannot be reached: their batches are passed over (a probe of one per index lookup).
        let excluded = excludingApps.sorted()
        let exclusion =
            excluded.isEmpty
            ? ""
            : """
             AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.id = queue_batches.notification_id
                AND n.app IN (\(Array(repeating: "?", count: excluded.count).joined(separator: ", "))))
            """
        var round = 0
        while leased.count < limit, round < 8 {
            // Intake's batches are full but a notification's few recipients are one small batch each: the
            // first round asks for what full batches would need, later ones for more.
            let remaining = limit - leased.count
            let wanted = round == 0 ? (remaining + rows - 1) / rows : min(remaining, 100)
            round += 1
            let batches = try connection.query(
                """
                SELECT \(columns) FROM queue_batches
                WHERE ((lease_token IS NULL AND due_at <= ?) OR lease_until <= ?)\(exclusion)
                ORDER BY due_at, id LIMIT ?\(lock)
                """, [time, time] + excluded.map { .text($0) } + [.integer(Int64(wanted))])
            for batch in batches {
                guard leased.count < limit else { break }
                guard batch.count > 7, batch[7].integer == 1, let notification = batch[1].text,
                    let (perMinute, nextSlot) = try rate(notification)
                else {
                    try take(batch, limit: limit - leased.count, token: token, until: until, into: &leased, connection)
                    continue
                }
                try takeThrottled(
                    batch, perMinute: perMinute, nextSlot: nextSlot, limit: limit - leased.count, token: token,
                    until: until, now: now, into: &leased, connection)
            }
            if batches.count < wanted { break }
        }
        return leased
    }

    /// ``take(_:limit:token:until:restDue:into:_:)`` for a batch of a throttled campaign (its rate row locked
    /// by the caller's `rate`): at most what its ``SendRate`` grants now, the rest of the batch pushed to when
    /// the next burst is due; the campaign's next free slot moved on by what was taken.
    private static func takeThrottled(
        _ batch: [SQLValue], perMinute: Int, nextSlot: Date, limit: Int, token: String, until: Date, now: Date,
        into leased: inout [LeasedRow], _ connection: any SQLConnection
    ) throws(StoreError) {
        guard let id = batch[0].integer, let notification = batch[1].text else { return }
        let grant = SendRate.grant(perMinute: perMinute, nextSlot: nextSlot, wanted: limit, now: now)
        guard grant.granted > 0 else {
            let resume = SQLGatewayStore.time(SendRate.resume(after: nextSlot, perMinute: perMinute))
            try connection.query(
                """
                UPDATE queue_batches SET due_at = CAST(? AS DOUBLE PRECISION), held = ?,
                    lease_until = CASE WHEN lease_token IS NULL THEN NULL ELSE CAST(? AS DOUBLE PRECISION) END
                WHERE id = ?
                """, [resume, .text(SendRate.throttled), resume, .integer(id)])
            return
        }
        let before = leased.count
        let after = SendRate.resume(after: grant.nextSlot, perMinute: perMinute)
        try take(batch, limit: grant.granted, token: token, until: until, restDue: after, into: &leased, connection)
        // Slots only for what was taken (a batch may hold fewer than granted).
        let used = SendRate.grant(perMinute: perMinute, nextSlot: nextSlot, wanted: leased.count - before, now: now)
        try connection.query(
            "UPDATE campaign_rates SET next_slot = ? WHERE notification_id = ?",
            [SQLGatewayStore.time(used.nextSlot), .text(notification)])
    }

    /// Leases one batch's recipients without an outcome (up to `limit`) and holds it, splitting off the rest
    /// of its range when the limit stopped short of it (free when the batch was, else still the expired
    /// lease's; due at `restDue`, held by the campaign's rate, when given); removes it when nothing in it is
    /// left to send.
    private static func take(
        _ batch: [SQLValue], limit: Int, token: String, until: Date, restDue: Date? = nil,
        into leased: inout [LeasedRow], _ connection: any SQLConnection
    ) throws(StoreError) {
        guard let id = batch[0].integer, let notification = batch[1].text, let first = batch[2].integer,
            let last = batch[3].integer
        else { return }
        let size = batch[4].integer ?? 0
        let wasFree = batch[5] == .null
        let leases = SQLValue.integer((batch[6].integer ?? 0) + 1)
        // The notification's id is the batch's: one string shared by its rows, not one read per row.
        let shared = SQLValue.text(notification)
        let rows = try connection.query(
            """
            SELECT id, token, apns_id, variant, language FROM deliveries
            WHERE notification_id = ? AND id BETWEEN ? AND ? AND state IN ('queued', 'leased') ORDER BY id LIMIT ?
            """, [shared, .integer(first), .integer(last), .integer(Int64(limit))])
        guard !rows.isEmpty else {
            try connection.query("DELETE FROM queue_batches WHERE id = ?", [.integer(id)])
            return
        }
        var end = last
        if rows.count == limit, let highest = rows.last?[0].integer, highest < last {
            // The limit stopped inside the range: the rest is a batch of its own, as this one was.
            end = highest
            if let restDue {
                let due = SQLGatewayStore.time(restDue)
                try connection.query(
                    """
                    INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_token,
                        lease_until, leases, held, throttled)
                    SELECT notification_id, ?, last_id, ?, CAST(? AS DOUBLE PRECISION), lease_token,
                        CASE WHEN lease_token IS NULL THEN NULL ELSE CAST(? AS DOUBLE PRECISION) END, leases, ?, throttled
                    FROM queue_batches WHERE id = ?
                    """,
                    [
                        .integer(highest + 1), .integer(max(size - Int64(rows.count), 1)), due, due,
                        .text(SendRate.throttled), .integer(id),
                    ])
            } else {
                try connection.query(
                    """
                    INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_token,
                        lease_until, leases, held, throttled)
                    SELECT notification_id, ?, last_id, ?, due_at, lease_token, lease_until, leases, held, throttled
                    FROM queue_batches WHERE id = ?
                    """, [.integer(highest + 1), .integer(max(size - Int64(rows.count), 1)), .integer(id)])
            }
        }
        try connection.query(
            """
            UPDATE queue_batches SET lease_token = ?, lease_until = ?, leases = ?, last_id = ?, size = ?
            WHERE id = ?
            """,
            [
                .text(token), SQLGatewayStore.time(until), leases, .integer(end),
                .integer(end == last ? size : Int64(rows.count)), .integer(id),
            ])
        let leaseCount = Int(leases.integer ?? 1)
        for row in rows {
            leased.append(
                LeasedRow(
                    id: row[0].integer ?? 0, batch: id, notification: notification, token: row[1].text ?? "",
                    apnsID: row[2].text ?? "", leases: leaseCount, wasQueued: wasFree, variant: row[3].text,
                    language: row[4].text))
        }
    }

    /// Locks (PostgreSQL) the batches the leases `tokens` hold, in id order, before an outcome or a release
    /// writes their recipients' rows: a lease skips a batch an outcome holds (and takes its rest once the
    /// outcome committed), or the outcome waits for the lease that took its expired batch and is refused. Returns
    /// the batches: id, notification_id, first_id, last_id, lease_token.
    static func lock(held tokens: Set<String>, dialect: SQLDialect, _ connection: any SQLConnection)
        throws(StoreError) -> [[SQLValue]]
    {
        guard !tokens.isEmpty else { return [] }
        var values = tokens.sorted().map { SQLValue.text($0) }
        // Padded with the last token repeated: a few statement shapes, not one per count (outcomes of single
        // notifications handed over together carry a token each).
        if values.count <= SQLGatewayStore.rowsPerStatement {
            values += Array(
                repeating: values[values.count - 1], count: StatementShapes.padded(values.count) - values.count)
        }
        return try connection.query(
            "SELECT id, notification_id, first_id, last_id, lease_token FROM queue_batches WHERE lease_token IN ("
                + Array(repeating: "?", count: values.count).joined(separator: ", ") + ") ORDER BY id"
                + dialect.lockRow, values)
    }

    /// Removes those of `batches` (as ``lock(held:dialect:_:)`` answered them) with no recipient left
    /// queued or leased, in the outcome's transaction. A batch every id of whose range is among `finished`
    /// (recorded in this transaction) is removed without a look at its rows.
    static func removeFinished(_ batches: [[SQLValue]], finished: Set<Int64> = [], _ connection: any SQLConnection)
        throws(StoreError)
    {
        var done: [SQLValue] = []
        for batch in batches {
            guard let id = batch[0].integer else { continue }
            if let first = batch[2].integer, let last = batch[3].integer, last - first < Int64(finished.count),
                (first...last).allSatisfy(finished.contains)
            {
                done.append(.integer(id))
                continue
            }
            let unfinished = try connection.query(
                """
                SELECT 1 FROM deliveries WHERE notification_id = ? AND id BETWEEN ? AND ?
                    AND state IN ('queued', 'leased') LIMIT 1
                """, [batch[1], batch[2], batch[3]])
            if unfinished.isEmpty { done.append(.integer(id)) }
        }
        try remove(done, connection)
    }

    /// Deletes the batches `ids`: one statement for many (an outcome of single notifications finishes a batch
    /// each), padded to a few shapes with the last id repeated.
    private static func remove(_ ids: [SQLValue], _ connection: any SQLConnection) throws(StoreError) {
        var start = 0
        while start < ids.count {
            let end = min(start + SQLGatewayStore.rowsPerStatement, ids.count)
            var chunk = Array(ids[start..<end])
            chunk += Array(repeating: chunk[chunk.count - 1], count: StatementShapes.padded(chunk.count) - chunk.count)
            try connection.query(
                chunk.count == 1
                    ? "DELETE FROM queue_batches WHERE id = ?"
                    : "DELETE FROM queue_batches WHERE id IN ("
                        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")", chunk)
            start = end
        }
    }

    /// Whether `id` of `notification` is in one of `batches` (as ``lock(held:dialect:_:)`` answered them)
    /// held by `token`: its outcome counts.
    static func holds(_ batches: [[SQLValue]], token: String, notification: String, id: Int64) -> Bool {
        batches.contains { batch in
            batch[4].text == token && batch[1].text == notification && (batch[2].integer ?? .max) <= id
                && id <= (batch[3].integer ?? .min)
        }
    }

    /// Makes the batches a released lease held due again when every recipient of theirs still to send was
    /// given back (a batch partly given back stays held: the rest may still be sending, and the given back
    /// come again when the lease runs out). Returns how many recipients are queued again, by notification.
    static func free(_ batches: [[SQLValue]], releasing deliveries: [LeasedDelivery], _ connection: any SQLConnection)
        throws(StoreError) -> [String: Int]
    {
        var freed: [String: Int] = [:]
        for batch in batches {
            guard let id = batch[0].integer, let notification = batch[1].text, let token = batch[4].text else {
                continue
            }
            let given = Set(
                deliveries.lazy.filter {
                    $0.leaseToken == token && holds([batch], token: token, notification: notification, id: $0.id)
                }.map(\.id))
            let unfinished =
                try connection.query(
                    """
                    SELECT COUNT(*) FROM deliveries WHERE notification_id = ? AND id BETWEEN ? AND ?
                        AND state IN ('queued', 'leased')
                    """, [batch[1], batch[2], batch[3]]
                ).first?[0].integer ?? 0
            guard Int64(given.count) == unfinished, unfinished > 0 else { continue }
            try connection.query("UPDATE queue_batches SET lease_token = NULL WHERE id = ?", [.integer(id)])
            freed[notification, default: 0] += given.count
        }
        return freed
    }

    /// Cancels a campaign's recipients that no lease holds and drops their batches; a held batch stays until
    /// its lease ends, as its recipients are still being sent. Returns how many were cancelled.
    static func cancel(_ notification: String, now: Date, _ connection: any SQLConnection) throws(StoreError) -> Int {
        try connection.query(
            "DELETE FROM queue_batches WHERE notification_id = ? AND lease_token IS NULL", [.text(notification)])
        return try connection.run(
            """
            UPDATE deliveries SET state = 'cancelled', finished_at = ?
            WHERE notification_id = ? AND state = 'queued' AND NOT EXISTS (
                SELECT 1 FROM queue_batches b WHERE b.notification_id = deliveries.notification_id
                    AND deliveries.id BETWEEN b.first_id AND b.last_id)
            """, [SQLGatewayStore.time(now), .text(notification)]
        ).changes
    }

    /// The batches of `notification` that overlap ids `low…high`: first_id, last_id, lease_token, leases (a
    /// reader's view of which recipients are leased, and how often).
    static func overlapping(_ notification: String, low: Int64, high: Int64, _ connection: any SQLConnection)
        throws(StoreError) -> [[SQLValue]]
    {
        try connection.query(
            """
            SELECT first_id, last_id, lease_token, leases FROM queue_batches
            WHERE notification_id = ? AND last_id >= ? AND first_id <= ?
            """, [.text(notification), .integer(low), .integer(high)])
    }

    /// How many of `notification`'s recipients without an outcome a lease holds (its counts by state read
    /// them as leased).
    static func held(_ notification: String, _ connection: any SQLConnection) throws(StoreError) -> Int {
        Int(
            try connection.query(
                """
                SELECT COUNT(*) FROM queue_batches b JOIN deliveries d
                    ON d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id
                WHERE b.notification_id = ? AND b.lease_token IS NOT NULL AND d.state = 'queued'
                """, [.text(notification)]
            ).first?[0].integer ?? 0)
    }

    /// Recipients queued or leased, counted in the batches' ranges only (not the whole table).
    static let depth = """
        SELECT COUNT(*) FROM queue_batches b JOIN deliveries d
            ON d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id
        WHERE d.state IN ('queued', 'leased')
        """
}
