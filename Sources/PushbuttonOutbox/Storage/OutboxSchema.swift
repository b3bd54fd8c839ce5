import PushbuttonSQLite

/// The outbox's tables, as migrations for ``SQLiteMigrator``.
enum OutboxSchema {
    /// Never edit or reorder: only append.
    static let migrations: [SQLiteMigrator.Migration] = [
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
        (
            "3-typed-last-cause",
            """
            -- The last failure's kind (an OutboxFailure.Code) and HTTP status beside its text in last_error.
            ALTER TABLE outbox ADD COLUMN last_cause TEXT;
            ALTER TABLE outbox ADD COLUMN last_status INTEGER;
            """
        ),
    ]

    /// An outbox has its migrations recorded and the outbox table (every migration commits with its record, so
    /// an outbox never has its tables without `schema_migrations`); the gateway's store, which also records
    /// migrations, is refused as "not an outbox" rather than as "made by a newer version".
    static let migrator = SQLiteMigrator(
        kind: "a Pushbutton outbox", migrations: migrations,
        recognises: { $0.isSuperset(of: ["schema_migrations", "outbox"]) })
}
