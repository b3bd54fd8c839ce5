import Foundation

/// SQLite's lease in two steps: the recipients are read on a reader connection (WAL lets it read while the
/// one writer writes), and the writer only holds the batches they were read from — the writer connection,
/// which intake pages and outcomes also need, is no longer held while a lease reads its 1,000 rows.
extension QueueBatches {
    /// Free due batches (in due order, as ``lease(limit:token:until:now:dialect:_:)`` takes them) and up to
    /// `limit` of their recipients without an outcome, read without the write lock.
    static func candidates(limit: Int, now: Date, _ connection: any SQLConnection) throws(StoreError)
        -> [LeaseCandidate]
    {
        var candidates: [LeaseCandidate] = []
        var count = 0
        var seen = Set<Int64>()
        let time = SQLGatewayStore.time(now)
        var round = 0
        while count < limit, round < 8 {
            // As the writer's lease asks: what full batches need first, more later. Nothing is held here, so a
            // later round asks again for those seen and skips them.
            let remaining = limit - count
            let wanted = seen.count + (round == 0 ? (remaining + rows - 1) / rows : min(remaining, 100))
            round += 1
            let batches = try connection.query(
                """
                SELECT id, notification_id, first_id, last_id, size, due_at, lease_until, leases FROM queue_batches
                WHERE lease_token IS NULL AND (due_at <= ? OR lease_until <= ?)
                ORDER BY due_at, id LIMIT ?
                """, [time, time, .integer(Int64(wanted))])
            for batch in batches where count < limit {
                guard let id = batch[0].integer, seen.insert(id).inserted, let notification = batch[1].text,
                    let first = batch[2].integer, let last = batch[3].integer
                else { continue }
                let remaining = limit - count
                let recipients = try connection.query(
                    """
                    SELECT id, token, apns_id FROM deliveries
                    WHERE notification_id = ? AND id BETWEEN ? AND ? AND state IN ('queued', 'leased') ORDER BY id LIMIT ?
                    """, [batch[1], .integer(first), .integer(last), .integer(Int64(remaining))])
                candidates.append(
                    LeaseCandidate(
                        id: id, notification: notification, first: first, last: last, size: batch[4].integer ?? 0,
                        dueAt: batch[5], leaseUntil: batch[6], leases: batch[7].integer ?? 0, rows: recipients,
                        limited: recipients.count == remaining))
                count += recipients.count
            }
            if batches.count < wanted { break }
        }
        return candidates
    }

    /// Holds `candidate` under `token` until `until` if no lease took it since it was read (still free, its
    /// lease count unchanged), splitting off the rest of its range when the limit stopped inside it, or
    /// removes it when it had nothing left to send; appends its recipients to `leased`. Returns false when
    /// another lease took it first (nothing is written then).
    static func claim(
        _ candidate: LeaseCandidate, token: String, until: Date, into leased: inout [LeasedRow],
        _ connection: any SQLConnection
    ) throws(StoreError) -> Bool {
        let unchanged = " WHERE id = ? AND lease_token IS NULL AND leases = ?"
        let key: [SQLValue] = [.integer(candidate.id), .integer(candidate.leases)]
        guard let highest = candidate.rows.last?[0].integer else {
            return try connection.run("DELETE FROM queue_batches" + unchanged, key).changes == 1
        }
        let split = candidate.limited && highest < candidate.last
        let end = split ? highest : candidate.last
        let count = Int64(candidate.rows.count)
        let leases = candidate.leases + 1
        guard
            try connection.run(
                "UPDATE queue_batches SET lease_token = ?, lease_until = ?, leases = ?, last_id = ?, size = ?"
                    + unchanged,
                [
                    .text(token), SQLGatewayStore.time(until), .integer(leases), .integer(end),
                    .integer(split ? count : candidate.size),
                ] + key
            ).changes == 1
        else { return false }
        if split {
            // The rest is a free batch of its own, as this one was.
            try connection.query(
                """
                INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_until, leases)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(candidate.notification), .integer(highest + 1), .integer(candidate.last),
                    .integer(max(candidate.size - count, 1)), candidate.dueAt, candidate.leaseUntil,
                    .integer(candidate.leases),
                ])
        }
        for row in candidate.rows {
            leased.append(
                LeasedRow(
                    id: row[0].integer ?? 0, notification: candidate.notification, token: row[1].text ?? "",
                    apnsID: row[2].text ?? "", leases: Int(leases), wasQueued: true))
        }
        return true
    }
}
