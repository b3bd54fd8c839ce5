import Foundation

/// What differs between SQLite and PostgreSQL in the store's SQL: column types and the lease statement.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Fills a migration's `{ID}` (an auto-numbered key), `{KEY}` (an integer key given by the row), `{BLOB}`
    /// and `{REAL}` types, and keeps `{POSTGRES: …}` (SQL only PostgreSQL runs) for PostgreSQL only.
    func render(_ sql: String) -> String {
        let (id, key, blob, real) =
            self == .sqlite
            ? ("INTEGER PRIMARY KEY", "INTEGER PRIMARY KEY", "BLOB", "REAL")
            : ("BIGSERIAL PRIMARY KEY", "BIGINT PRIMARY KEY", "BYTEA", "DOUBLE PRECISION")
        return sql.replacingOccurrences(of: "{ID}", with: id).replacingOccurrences(of: "{KEY}", with: key)
            .replacingOccurrences(of: "{BLOB}", with: blob).replacingOccurrences(of: "{REAL}", with: real)
            .replacingOccurrences(
                of: #"\{POSTGRES: ([^}]*)\}"#, with: self == .postgres ? "$1" : "", options: .regularExpression)
    }

    /// Appended to a `SELECT` of one row that a transaction then changes things under: PostgreSQL locks the
    /// row until the transaction ends; SQLite has one writer at a time already.
    var lockRow: String { self == .postgres ? " FOR UPDATE" : "" }

    /// Leases due recipients: queued and due, or leased with an expired lease. Each statement returns id,
    /// notification_id, token, apns_id, leases and the state the row was in (the campaign tallies move
    /// only the queued ones). The headers (topic, push type…) are the notification's: the lease reads them
    /// from it, once.
    ///
    /// SQLite (one writer at a time already): one statement per state taken, `from` (`leased`: expired
    /// leases, `queued`: due rows). Values: lease token, lease end, now, limit.
    static func sqliteLease(from state: DeliveryState) -> String {
        let due = state == .leased ? "lease_until" : "due_at"
        return """
            UPDATE deliveries SET state = 'leased', lease_token = ?, lease_until = ?, leases = leases + 1
            WHERE id IN (SELECT id FROM deliveries WHERE state = '\(state.rawValue)' AND \(due) <= ? LIMIT ?)
            RETURNING id, notification_id, token, apns_id, leases, '\(state.rawValue)'
            """
    }

    /// PostgreSQL: one statement that skips rows another transaction has locked, so several processes lease
    /// at once without waiting or sharing a row; the rows' earlier state comes from the CTEs' snapshot.
    /// Expired leases first, then queued rows, each read in its partial index's order so the scan stops at the
    /// limit: one condition with OR made a bitmap of every queued row on each lease (pg_stat_statements: half
    /// of PostgreSQL's time in a 200,000-recipient campaign). Numbered here, as each value is used twice.
    /// Values: now, now, limit, lease token, lease end.
    static let postgresLease = """
        WITH expired AS (
            SELECT id, state FROM deliveries WHERE state = 'leased' AND lease_until <= $2
            ORDER BY lease_until LIMIT $3 FOR UPDATE SKIP LOCKED),
        queued AS (
            SELECT id, state FROM deliveries WHERE state = 'queued' AND due_at <= $1
            ORDER BY due_at LIMIT $3 FOR UPDATE SKIP LOCKED),
        due AS (SELECT id, state FROM expired UNION ALL SELECT id, state FROM queued LIMIT $3)
        UPDATE deliveries SET state = 'leased', lease_token = $4, lease_until = $5, leases = deliveries.leases + 1
        FROM due WHERE deliveries.id = due.id
        RETURNING deliveries.id, deliveries.notification_id, deliveries.token, deliveries.apns_id,
            deliveries.leases, due.state
        """
}
