import Foundation

/// The relays' leases on the webhook and stream queues: a claim sets a token and an expiry (`claimed_until`),
/// skipping rows another process holds; only the token's holder renews, finishes or retries them, and a
/// failed post waits out its backoff in `claimed_until` with no holder, so whichever process is alive posts it.
extension SQLGatewayStore {
    /// Claims up to `limit` claimable events of `lease`'s queue (never claimed, or their lease or backoff over)
    /// under its token, returning `columns` of each.
    func claimEvents(
        _ lease: EventLease, returning columns: String, limit: Int, duration: TimeInterval, now: Date,
        _ connection: any SQLConnection
    ) throws(StoreError) -> [[SQLValue]] {
        let (table, key) = lease.queue.table
        // Another process's claim is skipped (PostgreSQL: its rows are not even waited for).
        return try connection.query(
            """
            UPDATE \(table) SET claimed_until = ?, lease_token = ?
            WHERE \(key) IN (
                SELECT \(key) FROM \(table) WHERE claimed_until IS NULL OR claimed_until <= ?
                ORDER BY \(key) LIMIT ?\(dialect.skipLocked))
            RETURNING \(columns)
            """,
            [
                .real(now.timeIntervalSince1970 + duration), .text(lease.token), Self.time(now),
                .integer(Int64(limit)),
            ])
    }

    /// The failed posts of claimed rows whose id is their first column and count the `column`th.
    static func failures(_ rows: [[SQLValue]], column: Int) -> [Int64: Int] {
        var failures: [Int64: Int] = [:]
        for row in rows {
            if let id = row[0].integer, let count = row[column].integer, count > 0 { failures[id] = Int(count) }
        }
        return failures
    }

    /// Holds the lease's events until `until`.
    @discardableResult
    public func renewEventLease(_ lease: EventLease, until: Date) throws(StoreError) -> Int {
        let (table, key) = lease.queue.table
        return try with { connection throws(StoreError) in
            try connection.query(
                "UPDATE \(table) SET claimed_until = ? WHERE lease_token = ? RETURNING \(key)",
                [.real(until.timeIntervalSince1970), .text(lease.token)]
            ).count
        }
    }

    /// Removes events held under `lease`.
    @discardableResult
    public func finishEvents(_ ids: [Int64], lease: EventLease) throws(StoreError) -> Int {
        let (table, key) = lease.queue.table
        var removed = 0
        try with { connection throws(StoreError) in
            for chunk in Self.idChunks(ids) {
                removed += try connection.query(
                    "DELETE FROM \(table) WHERE lease_token = ? AND \(key) IN (\(chunk.marks)) RETURNING \(key)",
                    [.text(lease.token)] + chunk.values
                ).count
            }
        }
        return removed
    }

    /// Gives events held under `lease` back from `at`, removing those out of attempts.
    public func retryEvents(_ ids: [Int64], lease: EventLease, at: Date, failed: Bool, maximumAttempts: Int)
        throws(StoreError) -> [Int64]
    {
        let (table, key) = lease.queue.table
        return try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> [Int64] in
                var removed: [Int64] = []
                for chunk in Self.idChunks(ids) {
                    let given = try connection.query(
                        """
                        UPDATE \(table) SET claimed_until = ?, lease_token = NULL, attempts = attempts + ?
                        WHERE lease_token = ? AND \(key) IN (\(chunk.marks)) RETURNING \(key), attempts
                        """,
                        [.real(at.timeIntervalSince1970), .integer(failed ? 1 : 0), .text(lease.token)] + chunk.values)
                    let spent = given.filter { ($0[1].integer ?? 0) >= Int64(maximumAttempts) }.compactMap {
                        $0[0].integer
                    }
                    guard failed, !spent.isEmpty else { continue }
                    for gone in Self.idChunks(spent) {
                        try connection.query("DELETE FROM \(table) WHERE \(key) IN (\(gone.marks))", gone.values)
                    }
                    removed += spent
                }
                return removed
            }
        }
    }

    /// `ids` in chunks of at most ``rowsPerStatement``, each padded to one of the statement shapes (the last id
    /// repeated), with its placeholders.
    static func idChunks(_ ids: [Int64]) -> [(marks: String, values: [SQLValue])] {
        stride(from: 0, to: ids.count, by: rowsPerStatement).map { start in
            var values = ids[start..<min(start + rowsPerStatement, ids.count)].map { SQLValue.integer($0) }
            values += Array(
                repeating: values[values.count - 1], count: StatementShapes.padded(values.count) - values.count)
            return (Array(repeating: "?", count: values.count).joined(separator: ", "), values)
        }
    }
}
