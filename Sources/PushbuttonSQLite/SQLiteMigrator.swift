/// Append-only, named schema migrations, as GRDB does them: each runs once, in order, under the write
/// lock, and is recorded by name. A database that has a migration this code does not know was made by a newer
/// Pushbutton and is refused rather than misread.
struct Migrator {
    /// Never edit or reorder: only append.
    static let migrations: [(name: String, sql: String)] = [
        (
            "1-create-outbox",
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY,
                idempotency_key TEXT NOT NULL UNIQUE,
                url TEXT NOT NULL,
                method TEXT NOT NULL,
                body BLOB,
                state TEXT NOT NULL CHECK (state IN ('pending', 'in_flight', 'delivered', 'dead')),
                attempts INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                next_attempt_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                lease_until REAL,
                delivered_at REAL,
                last_error TEXT,
                notification_id TEXT,
                action_id TEXT
            );
            CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
            """
        ),
        (
            "2-create-taps",
            """
            CREATE TABLE taps (
                id INTEGER PRIMARY KEY,
                at REAL NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('delivered', 'response')),
                notification_id TEXT,
                category TEXT NOT NULL,
                action TEXT,
                situation TEXT,
                latency REAL,
                reply_length INTEGER,
                reply_text TEXT
            );
            CREATE INDEX taps_at ON taps (at);
            """
        ),
    ]

    /// Applies the migrations the database lacks; returns their names.
    ///
    /// Everything happens in one write transaction (`BEGIN IMMEDIATE`): the applied migrations are read
    /// under the write lock, so any number of processes opening one new database at once apply each
    /// migration exactly once (the others wait, then find nothing to do). A database that already has
    /// tables of its own but no migrations table is not an outbox, and is refused untouched.
    @discardableResult
    static func migrate(_ database: SQLiteDatabase, now: Double) throws(SQLiteError) -> [String] {
        try database.transaction { () throws(SQLiteError) -> [String] in
            let tables = Set(
                try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.text })
            if !tables.contains("schema_migrations"), let other = tables.filter({ !$0.hasPrefix("sqlite_") }).min() {
                throw SQLiteError(
                    code: 1,
                    message:
                        "the database is not a Pushbutton outbox (it has a table '\(other)' and no schema_migrations); "
                        + "nothing was changed: give the path of an outbox, or of a new file",
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
