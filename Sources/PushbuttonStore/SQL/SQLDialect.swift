import Foundation

/// What differs between SQLite and PostgreSQL in the store's SQL: column types and row locks.
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
}
