/// The SQL of the workers' outcome statements, written once per statement shape (``StatementShapes``)
/// instead of joined again for every chunk: a chunk of 500 outcomes was a 90 KB string built, hashed and
/// compared with the prepared statements' keys each time.
enum OutcomeStatements {
    /// Delivered recipients with the same attempt and lease counts, by id: the id list padded to `count`
    /// (padding ids match no row). The caller has checked that their leases hold their batches (see
    /// ``QueueBatches``); no indexed column changes. Values: attempts, finished_at, leases, the ids.
    static func delivered(count: Int) -> String {
        deliveredByShape[count] ?? deliveredSQL(count)
    }

    /// Outcomes one by one (`UPDATE … FROM (VALUES …)`), for the rejected and failed: `count` rows of
    /// (id, state, status, reason, attempts, unregistered_at, leases); the casts type the values for
    /// PostgreSQL. Values: finished_at, then the rows.
    static func each(count: Int) -> String {
        eachByShape[count] ?? eachSQL(count)
    }

    private static let deliveredByShape = Dictionary(
        uniqueKeysWithValues: StatementShapes.sizes.map { ($0, deliveredSQL($0)) })
    private static let eachByShape = Dictionary(uniqueKeysWithValues: StatementShapes.sizes.map { ($0, eachSQL($0)) })

    private static func deliveredSQL(_ count: Int) -> String {
        """
        UPDATE deliveries SET state = 'delivered', status = 200, reason = NULL, attempts = ?,
            unregistered_at = NULL, finished_at = ?, leases = ?
        WHERE id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))
            AND state IN ('queued', 'leased')
        """
    }

    private static func eachSQL(_ count: Int) -> String {
        let row = """
            (CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER),
             CAST(? AS DOUBLE PRECISION), CAST(? AS INTEGER))
            """
        return """
            UPDATE deliveries SET state = v.column2, status = v.column3, reason = v.column4,
                attempts = v.column5, unregistered_at = v.column6, leases = v.column7, finished_at = ?
            FROM (VALUES \(Array(repeating: row, count: count).joined(separator: ", "))) AS v
            WHERE deliveries.id = v.column1 AND deliveries.state IN ('queued', 'leased')
            RETURNING deliveries.id
            """
    }

    /// Which of `count` ids (padded as in ``delivered(count:)``) a delivered statement recorded, when it
    /// changed fewer rows than it was given: those now delivered at this time with these counts. Values: the
    /// ids, finished_at, attempts, leases.
    static func recordedDelivered(count: Int) -> String {
        """
        SELECT id FROM deliveries WHERE id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))
            AND state = 'delivered' AND finished_at = ? AND attempts = ? AND leases = ?
        """
    }
}
