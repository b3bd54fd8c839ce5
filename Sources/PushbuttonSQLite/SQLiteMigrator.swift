/// Append-only, named schema migrations, as GRDB does them: each runs once, in order, under the write
/// lock, and is recorded by name in `schema_migrations`. A database that has a migration this code does not
/// know was made by a newer Pushbutton and is refused rather than misread; a database that is not of this
/// kind (``recognises``) is refused untouched.
package struct SQLiteMigrator: Sendable {
    /// One schema change: its name (recorded once applied) and its SQL script.
    package typealias Migration = (name: String, sql: String)

    /// Never edit or reorder: only append.
    package let migrations: [Migration]
    /// What the database is, for messages: "a Pushbutton outbox".
    package let kind: String
    /// Whether a database that already has tables (their names, without SQLite's own) is of this kind.
    /// Asked under the write lock before anything changes; `false` refuses the database untouched.
    package let recognises: @Sendable (_ tables: Set<String>) -> Bool

    /// - Parameter recognises: the "is this ours" check; by default a database is ours when it has a
    ///   `schema_migrations` table.
    package init(
        kind: String, migrations: [Migration],
        recognises: @escaping @Sendable (_ tables: Set<String>) -> Bool = { $0.contains("schema_migrations") }
    ) {
        self.kind = kind
        self.migrations = migrations
        self.recognises = recognises
    }

    /// Applies the migrations the database lacks; returns their names.
    ///
    /// Everything happens in one write transaction (`BEGIN IMMEDIATE`): the applied migrations are read
    /// under the write lock, so any number of processes opening one new database at once apply each
    /// migration exactly once (the others wait, then find nothing to do).
    @discardableResult
    package func migrate(_ database: SQLiteDatabase, now: Double) throws(SQLiteError) -> [String] {
        try database.transaction { () throws(SQLiteError) -> [String] in
            let tables = Set(
                try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.text }
            ).filter { !$0.hasPrefix("sqlite_") }
            if !tables.isEmpty, !recognises(tables) {
                let shown = tables.sorted().prefix(3).map { "'\($0)'" }.joined(separator: ", ")
                throw SQLiteError(
                    code: 1,
                    message:
                        "the database is not \(kind) (it has the tables \(shown)\(tables.count > 3 ? ", ..." : "")"
                        + "\(tables.contains("schema_migrations") ? "" : " and no schema_migrations")); "
                        + "nothing was changed: give the path of \(kind), or of a new file",
                    context: "opening \(database.path)")
            }
            try database.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)")
            let applied = Set(try database.query("SELECT name FROM schema_migrations").compactMap { $0.first?.text })
            let known = Set(migrations.map(\.name))
            if let unknown = applied.subtracting(known).sorted().first {
                throw SQLiteError(
                    code: 1,
                    message:
                        "the database has migration '\(unknown)', which this Pushbutton does not know: it was made by a newer version",
                    context: "migrating \(database.path)")
            }
            var ran: [String] = []
            for migration in migrations where !applied.contains(migration.name) {
                try database.execute(migration.sql)
                try database.query(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    [.text(migration.name), .real(now)])
                ran.append(migration.name)
            }
            return ran
        }
    }
}
