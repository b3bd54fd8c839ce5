import Foundation

/// What differs between SQLite and PostgreSQL in the store's SQL: column types and the lease statement.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Fills a migration's `{ID}` (an auto-numbered key), `{KEY}` (an integer key given by the row), `{BLOB}`
    /// and `{REAL}` types.
    func render(_ sql: String) -> String {
        let (id, key, blob, real) =
            self == .sqlite
            ? ("INTEGER PRIMARY KEY", "INTEGER PRIMARY KEY", "BLOB", "REAL")
            : ("BIGSERIAL PRIMARY KEY", "BIGINT PRIMARY KEY", "BYTEA", "DOUBLE PRECISION")
        return sql.replacingOccurrences(of: "{ID}", with: id).replacingOccurrences(of: "{KEY}", with: key)
            .replacingOccurrences(of: "{BLOB}", with: blob).replacingOccurrences(of: "{REAL}", with: real)
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
    /// at once without waiting or sharing a row; the rows' earlier state comes from the CTE's snapshot.
    /// Values: now, now, limit, lease token, lease end.
    static let postgresLease = """
        WITH due AS (
            SELECT id, state FROM deliveries
            WHERE (state = 'queued' AND due_at <= ?) OR (state = 'leased' AND lease_until <= ?)
            LIMIT ? FOR UPDATE SKIP LOCKED)
        UPDATE deliveries SET state = 'leased', lease_token = ?, lease_until = ?, leases = deliveries.leases + 1
        FROM due WHERE deliveries.id = due.id
        RETURNING deliveries.id, deliveries.notification_id, deliveries.token, deliveries.apns_id,
            deliveries.leases, due.state
        """
}
