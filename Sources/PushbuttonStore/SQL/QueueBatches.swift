import Foundation

/// The queue's due work as ranges of recipients' row ids (`queue_batches`, one row per up to ``rows``
/// recipients of one notification, written at intake), so a lease finds its recipients by range on
/// `deliveries_notification` instead of through indexes on the recipients' state: a lease and an outcome
/// change no indexed column of a recipient's row (PostgreSQL updates it in place, HOT), and nothing walks
/// the dead index entries of everything leased before.
///
/// A batch is free (`lease_token` NULL, due at `due_at`) or held by one lease until `lease_until`; an
/// expired hold is due again. The recipients' rows keep their own state and lease token (what readers show
/// and what an outcome is checked against); a batch only says where to look. `lease_until` stays set once a
/// batch was held (a release clears only the token): only then can its range hold expired leased rows.
/// A batch with no recipient left queued or leased is removed by the outcome (or lease) that finds it so.
///
/// Lock order, on PostgreSQL: batches first, then recipients' rows (lease, outcome, release and cancel alike),
/// so no two of them wait on each other.
enum QueueBatches {
    /// Recipients per batch at intake: a default lease (500) takes one, the benchmark's (1,000) two.
    static let rows = 500

    /// The batch columns a lease reads: id, notification_id, first_id, last_id, size, lease_until.
    private static let columns = "id, notification_id, first_id, last_id, size, lease_until"

    /// Makes batches of the queued recipients of `notification` with an id from `first` on (a page's or a
    /// notification's, just inserted in this transaction: no other row of it is there), due at `due`.
    static func create(notification: String, from first: Int64, due: Date, _ connection: any SQLConnection)
        throws(StoreError)
    {
        try connection.query(
            """
            INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at)
            SELECT notification_id, MIN(id), MAX(id), COUNT(*), ? FROM (
                SELECT notification_id, id, (ROW_NUMBER() OVER (ORDER BY id) - 1) / \(rows) AS chunk
                FROM deliveries WHERE notification_id = ? AND id >= ? AND state = 'queued') AS page
            GROUP BY notification_id, chunk
            """, [SQLGatewayStore.time(due), .text(notification), .integer(first)])
    }

    /// Leases up to `limit` due recipients under `token` until `until`: whole batches in due order (at least
    /// one; the last split when it holds more than the rest of the limit), their queued recipients and,
    /// where a batch was held before, its expired leases. Rows as ``SQLDialect``'s lease statements
    /// answered them: id, notification_id, token, apns_id, leases, and the state the row was in.
    static func lease(
        limit: Int, token: String, until: Date, now: Date, dialect: SQLDialect, _ connection: any SQLConnection
    ) throws(StoreError) -> [[SQLValue]] {
        var leased: [[SQLValue]] = []
        leased.reserveCapacity(limit)
        let time = SQLGatewayStore.time(now)
        // PostgreSQL skips batches another lease holds; SQLite has one writer at a time.
        let lock = dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
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
                WHERE (lease_token IS NULL AND due_at <= ?) OR lease_until <= ?
                ORDER BY due_at, id LIMIT ?\(lock)
                """, [time, time, .integer(Int64(wanted))])
            for batch in batches {
                guard leased.count < limit else { break }
                try take(batch, limit: limit - leased.count, token: token, until: until, now: now, into: &leased, connection)
            }
            if batches.count < wanted { break }
        }
        return leased
    }

    /// Leases one batch's due recipients (up to `limit`) and holds it, splitting off the rest of its range
    /// as a free batch when the limit stopped short of it; removes it when nothing in it is left to send.
    private static func take(
        _ batch: [SQLValue], limit: Int, token: String, until: Date, now: Date, into leased: inout [[SQLValue]],
        _ connection: any SQLConnection
    ) throws(StoreError) {
        guard let id = batch[0].integer, let notification = batch[1].text, let first = batch[2].integer,
            let last = batch[3].integer
        else { return }
        let size = batch[4].integer ?? 0
        let everHeld = batch[5] != .null
        let range: [SQLValue] = [.text(notification), .integer(first), .integer(last)]
        let set: [SQLValue] = [.text(token), SQLGatewayStore.time(until)]
        var rows: [[SQLValue]] = []
        if everHeld {
            let now = SQLGatewayStore.time(now)
            for var row in try connection.query(expiredStatement, set + range + [now, .integer(Int64(limit)), now]) {
                row.append(leasedState)
                rows.append(row)
            }
        }
        if rows.count < limit {
            for var row in try connection.query(queuedStatement, set + range + [.integer(Int64(limit - rows.count))]) {
                row.append(queuedState)
                rows.append(row)
            }
        }
        guard !rows.isEmpty else {
            // Nothing due in it: removed when nothing is in flight either, else held (an expired hold looks
            // again).
            let unfinished = try connection.query(
                """
                SELECT 1 FROM deliveries WHERE notification_id = ? AND id BETWEEN ? AND ?
                    AND state IN ('queued', 'leased') LIMIT 1
                """, range)
            if unfinished.isEmpty {
                try connection.query("DELETE FROM queue_batches WHERE id = ?", [.integer(id)])
            } else {
                try connection.query(
                    "UPDATE queue_batches SET lease_token = ?, lease_until = ? WHERE id = ?", set + [.integer(id)])
            }
            return
        }
        var end = last
        if rows.count == limit, let highest = rows.compactMap({ $0[0].integer }).max(), highest < last {
            // The limit stopped inside the range: the rest is a free batch of its own, due as this one was.
            end = highest
            try connection.query(
                """
                INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_until)
                SELECT notification_id, ?, last_id, ?, due_at, lease_until FROM queue_batches WHERE id = ?
                """, [.integer(highest + 1), .integer(max(size - Int64(rows.count), 1)), .integer(id)])
        }
        try connection.query(
            "UPDATE queue_batches SET lease_token = ?, lease_until = ?, last_id = ?, size = ? WHERE id = ?",
            set + [.integer(end), .integer(Int64(end == last ? size : Int64(rows.count))), .integer(id)])
        leased += rows
    }

    private static let queuedState = SQLValue.text(DeliveryState.queued.rawValue)
    private static let leasedState = SQLValue.text(DeliveryState.leased.rawValue)

    /// Leases a range's queued recipients in id order. Values: lease token, lease end, notification, first id,
    /// last id, limit.
    private static let queuedStatement = leaseStatement(due: "state = 'queued'")

    /// Leases a range's expired leases in id order. Values: lease token, lease end, notification, first id,
    /// last id, now, limit, now.
    private static let expiredStatement = leaseStatement(due: "state = 'leased' AND lease_until <= ?")

    /// The batch is held (locked, on PostgreSQL) by this transaction, so only an outcome whose own batch was
    /// released can be writing a row of it: the condition again outside the subquery makes PostgreSQL read
    /// such a row as committed before it leases it.
    private static func leaseStatement(due: String) -> String {
        """
        UPDATE deliveries SET state = 'leased', lease_token = ?, lease_until = ?, leases = leases + 1
        WHERE id IN (
            SELECT id FROM deliveries WHERE notification_id = ? AND id BETWEEN ? AND ? AND \(due)
            ORDER BY id LIMIT ?) AND \(due)
        RETURNING id, notification_id, token, apns_id, leases
        """
    }

    /// Locks (PostgreSQL) the batches the leases `tokens` hold, in id order, before an outcome or a release
    /// writes their recipients' rows: a lease skips a batch an outcome holds (and takes its rest once the
    /// outcome committed), or the outcome waits for the lease that took its expired batch and is refused. Returns
    /// the batches: id, notification_id, first_id, last_id.
    static func lock(held tokens: Set<String>, dialect: SQLDialect, _ connection: any SQLConnection)
        throws(StoreError) -> [[SQLValue]]
    {
        guard !tokens.isEmpty else { return [] }
        let sorted = tokens.sorted()
        return try connection.query(
            "SELECT id, notification_id, first_id, last_id FROM queue_batches WHERE lease_token IN ("
                + Array(repeating: "?", count: sorted.count).joined(separator: ", ") + ") ORDER BY id"
                + dialect.lockRow, sorted.map { .text($0) })
    }

    /// Removes those of `batches` (as ``lock(held:dialect:_:)`` answered them) with no recipient left
    /// queued or leased, in the outcome's transaction.
    static func removeFinished(_ batches: [[SQLValue]], _ connection: any SQLConnection) throws(StoreError) {
        for batch in batches {
            guard let id = batch[0].integer else { continue }
            let unfinished = try connection.query(
                """
                SELECT 1 FROM deliveries WHERE notification_id = ? AND id BETWEEN ? AND ?
                    AND state IN ('queued', 'leased') LIMIT 1
                """, [batch[1], batch[2], batch[3]])
            if unfinished.isEmpty { try connection.query("DELETE FROM queue_batches WHERE id = ?", [.integer(id)]) }
        }
    }

    /// Makes the batches a released lease held due again (their released recipients are queued again).
    static func free(_ batches: [[SQLValue]], _ connection: any SQLConnection) throws(StoreError) {
        for batch in batches {
            guard let id = batch[0].integer else { continue }
            try connection.query("UPDATE queue_batches SET lease_token = NULL WHERE id = ?", [.integer(id)])
        }
    }

    /// Drops a cancelled campaign's batches that were never held (their recipients, all queued, are
    /// cancelled with it); a held one stays until its leases end, as its leased recipients are still sent.
    static func dropUnheld(of notification: String, _ connection: any SQLConnection) throws(StoreError) {
        try connection.query(
            "DELETE FROM queue_batches WHERE notification_id = ? AND lease_until IS NULL", [.text(notification)])
    }

    /// Recipients queued or leased, counted in the batches' ranges only (not the whole table).
    static let depth = """
        SELECT COUNT(*) FROM queue_batches b JOIN deliveries d
            ON d.notification_id = b.notification_id AND d.id BETWEEN b.first_id AND b.last_id
        WHERE d.state IN ('queued', 'leased')
        """
}
