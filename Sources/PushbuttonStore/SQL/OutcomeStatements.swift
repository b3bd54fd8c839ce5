/// The SQL of the workers' outcome statements, written once per statement shape (``StatementShapes``)
/// instead of joined again for every chunk: a chunk of 500 outcomes was a 90 KB string built, hashed and
/// compared with the prepared statements' keys each time.
enum OutcomeStatements {
    /// Delivered recipients of one lease with the same attempt count, by id: the id list padded to `count`
    /// (padding ids match no row). Values: attempts, finished_at, the ids, the lease token.
    static func delivered(count: Int) -> String {
        deliveredByShape[count] ?? deliveredSQL(count)
    }

    /// Outcomes one by one (`UPDATE … FROM (VALUES …)`), for the rejected and failed: `count` rows of
    /// (id, lease token, state, status, reason, attempts, unregistered_at); the casts type the values for
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
            unregistered_at = NULL, finished_at = ?, lease_until = NULL
        WHERE id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))
            AND state = 'leased' AND lease_token = ?
        """
    }

    private static func eachSQL(_ count: Int) -> String {
        let row = """
            (CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT),
             CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION))
            """
        return """
            UPDATE deliveries SET state = v.column3, status = v.column4, reason = v.column5,
                attempts = v.column6, unregistered_at = v.column7, finished_at = ?, lease_until = NULL
            FROM (VALUES \(Array(repeating: row, count: count).joined(separator: ", "))) AS v
            WHERE deliveries.id = v.column1 AND deliveries.state = 'leased'
                AND deliveries.lease_token = v.column2
            RETURNING deliveries.id
            """
    }

    /// Which of `count` ids (padded as in ``delivered(count:)``) a delivered statement recorded, when it
    /// changed fewer rows than it was given: those now delivered under this lease at this time. Values: the
    /// ids, the lease token, finished_at.
    static func recordedDelivered(count: Int) -> String {
        """
        SELECT id FROM deliveries WHERE id IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))
            AND lease_token = ? AND state = 'delivered' AND finished_at = ?
        """
    }
}
