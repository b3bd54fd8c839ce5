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

    /// Leases due recipients: queued and due, or leased with an expired lease. PostgreSQL skips rows another
    /// transaction has locked, so several processes lease at once without waiting or sharing a row.
    /// Values: lease token, lease end, now, now, limit.
    var leaseStatement: String {
        // The headers (topic, push type…) are the notification's: the lease reads them from it, once.
        let returning = "RETURNING id, notification_id, token, apns_id, leases"
        switch self {
        case .sqlite:
            return """
                UPDATE deliveries SET state = 'leased', lease_token = ?, lease_until = ?, leases = leases + 1
                WHERE id IN (
                    SELECT id FROM deliveries WHERE state = 'queued' AND due_at <= ?
                    UNION ALL SELECT id FROM deliveries WHERE state = 'leased' AND lease_until <= ?
                    LIMIT ?)
                \(returning)
                """
        case .postgres:
            return """
                UPDATE deliveries SET state = 'leased', lease_token = ?, lease_until = ?, leases = leases + 1
                WHERE id IN (
                    SELECT id FROM deliveries
                    WHERE (state = 'queued' AND due_at <= ?) OR (state = 'leased' AND lease_until <= ?)
                    LIMIT ? FOR UPDATE SKIP LOCKED)
                \(returning)
                """
        }
    }
}
