import Foundation

/// What differs between SQLite and PostgreSQL in the store's SQL: column types, row locks, commits that do not
/// wait for the disk, and what SQLite's one writer allows. The store asks these by name rather than branching
/// on the case.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// Fills a migration's `{ID}` (an auto-numbered key), `{KEY}` (an integer key given by the row), `{BLOB}`
    /// and `{REAL}` types, and keeps `{POSTGRES: …}` (SQL only PostgreSQL runs) for PostgreSQL only and
    /// `{SQLITE: …}` for SQLite only (neither may contain a `}`).
    func render(_ sql: String) -> String {
        let (id, key, blob, real) =
            self == .sqlite
            ? ("INTEGER PRIMARY KEY", "INTEGER PRIMARY KEY", "BLOB", "REAL")
            : ("BIGSERIAL PRIMARY KEY", "BIGINT PRIMARY KEY", "BYTEA", "DOUBLE PRECISION")
        return sql.replacingOccurrences(of: "{ID}", with: id).replacingOccurrences(of: "{KEY}", with: key)
            .replacingOccurrences(of: "{BLOB}", with: blob).replacingOccurrences(of: "{REAL}", with: real)
            .replacingOccurrences(
                of: #"\{POSTGRES: ([^}]*)\}"#, with: self == .postgres ? "$1" : "", options: .regularExpression
            )
            .replacingOccurrences(
                of: #"\{SQLITE: ([^}]*)\}"#, with: self == .sqlite ? "$1" : "", options: .regularExpression)
    }

    /// Appended to a `SELECT` of one row that a transaction then changes things under: PostgreSQL locks the
    /// row until the transaction ends; SQLite has one writer at a time already.
    var lockRow: String { self == .postgres ? " FOR UPDATE" : "" }

    /// Appended to a `SELECT` of rows to claim (a lease's batches, webhook events): PostgreSQL locks them and
    /// skips rows another process's transaction holds (not even waiting for them); SQLite has one writer at a
    /// time already.
    var skipLocked: String { self == .postgres ? " FOR UPDATE SKIP LOCKED" : "" }

    /// Whether the database has one writer at a time, which numbers new rows above the largest id in the
    /// table (SQLite): then a page's smallest new id is known before its INSERTs, and pages can be committed in
    /// groups by one thread. PostgreSQL has many writers, numbering rows from a sequence.
    var hasOneWriter: Bool { self == .sqlite }

    /// Runs `body` in a transaction that commits without waiting for the disk: SQLite with
    /// `synchronous=NORMAL` for this one transaction (the pragma takes effect only outside one, and is set back
    /// to `FULL` after it), PostgreSQL with `synchronous_commit` off inside it.
    func transactionWithoutWaitingForDisk<Result>(
        _ connection: any SQLConnection, _ body: () throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        switch self {
        case .sqlite:
            try connection.script("PRAGMA synchronous=NORMAL")
            defer { try? connection.script("PRAGMA synchronous=FULL") }
            return try connection.transaction(body)
        case .postgres:
            return try connection.transaction { () throws(StoreError) -> Result in
                try connection.script("SET LOCAL synchronous_commit = off")
                return try body()
            }
        }
    }
}
