import Foundation
import PushbuttonSQLite

/// Append-only, named schema migrations, as the outbox's `Migrator` does them: each runs once, in order,
/// in a transaction, and is recorded by name. A database with a migration this code does not know was made
/// by a newer Pushbutton and is refused rather than misread.
enum StoreMigrations {
    /// Never edit or reorder: only append (taps and stats come as later entries).
    static let migrations: [(name: String, sql: String)] = [
        (
            "1-create-devices",
            """
            CREATE TABLE devices (
                app TEXT NOT NULL,
                token TEXT NOT NULL,
                environment TEXT NOT NULL,
                locale TEXT,
                app_version TEXT,
                user_id TEXT,
                tags TEXT NOT NULL,
                registered_at {REAL} NOT NULL,
                updated_at {REAL} NOT NULL,
                active INTEGER NOT NULL,
                inactive_since {REAL},
                PRIMARY KEY (app, token)
            );
            CREATE INDEX devices_user ON devices (app, user_id);
            CREATE TABLE device_tags (
                app TEXT NOT NULL,
                tag TEXT NOT NULL,
                token TEXT NOT NULL,
                PRIMARY KEY (app, tag, token)
            );
            """
        ),
        (
            "2-create-queue",
            """
            CREATE TABLE notifications (
                id TEXT PRIMARY KEY,
                app TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('notification', 'campaign')),
                state TEXT NOT NULL CHECK (state IN ('open', 'cancelled')),
                topic TEXT NOT NULL,
                push_type TEXT NOT NULL,
                priority INTEGER,
                expiration BIGINT,
                collapse_id TEXT,
                created_at {REAL} NOT NULL,
                request {BLOB} NOT NULL
            );
            CREATE TABLE deliveries (
                id {ID},
                notification_id TEXT NOT NULL REFERENCES notifications (id),
                app TEXT NOT NULL,
                token TEXT NOT NULL,
                apns_id TEXT NOT NULL,
                topic TEXT NOT NULL,
                push_type TEXT NOT NULL,
                priority INTEGER,
                expiration BIGINT,
                collapse_id TEXT,
                state TEXT NOT NULL
                    CHECK (state IN ('queued', 'leased', 'delivered', 'rejected', 'failed', 'skipped', 'cancelled')),
                due_at {REAL} NOT NULL,
                leases INTEGER NOT NULL DEFAULT 0,
                lease_token TEXT,
                lease_until {REAL},
                attempts INTEGER NOT NULL DEFAULT 0,
                status INTEGER,
                reason TEXT,
                finished_at {REAL},
                unregistered_at {REAL}
            );
            CREATE INDEX deliveries_notification ON deliveries (notification_id, id);
            -- Payloads apart: a lease and an outcome rewrite the small delivery row, not the payload with it.
            CREATE TABLE payloads (
                delivery_id {KEY},
                payload {BLOB} NOT NULL
            );
            CREATE INDEX deliveries_queued ON deliveries (due_at) WHERE state = 'queued';
            CREATE INDEX deliveries_leased ON deliveries (lease_until) WHERE state = 'leased';
            CREATE TABLE idempotency_keys (
                app TEXT NOT NULL,
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                notification_id TEXT NOT NULL,
                created_at {REAL} NOT NULL,
                PRIMARY KEY (app, key)
            );
            """
        ),
        (
            "3-shared-payloads",
            """
            -- A notification's payload once, when its recipients share it (a campaign without per-recipient
            -- data): a recipient with no row in payloads is sent this one, so intake writes one small row each.
            CREATE TABLE shared_payloads (
                notification_id TEXT PRIMARY KEY REFERENCES notifications (id),
                payload {BLOB} NOT NULL
            );
            -- A campaign's progress (counts by state, polled while it runs) from the index alone: without
            -- it each poll read every row of the campaign.
            CREATE INDEX deliveries_notification_state ON deliveries (notification_id, state);
            """
        ),
        TapSchema.migration,
        (
            "5-webhook-events",
            """
            -- A dead token or a final failure to report, written in the outcome's own transaction; the
            -- gateway hands each to its webhook outbox, then removes it. The details are the recipient's row.
            CREATE TABLE webhook_events (
                delivery_id {KEY} REFERENCES deliveries (id),
                type TEXT NOT NULL,
                created_at {REAL} NOT NULL,
                claimed_until {REAL}
            );
            """
        ),
        (
            "6-slim-deliveries",
            """
            -- The headers are the notification's (the lease reads them from its row, once): a recipient's row
            -- keeps its token, state, outcome and attempts, so an insert, a lease and an outcome write less.
            ALTER TABLE deliveries DROP COLUMN topic;
            ALTER TABLE deliveries DROP COLUMN push_type;
            ALTER TABLE deliveries DROP COLUMN priority;
            ALTER TABLE deliveries DROP COLUMN expiration;
            ALTER TABLE deliveries DROP COLUMN collapse_id;
            """
        ),
        (
            "7-campaign-tallies",
            """
            -- A campaign's counts by state, as the changes each transaction made (see CampaignTallies): its
            -- progress sums a few rows per thousand recipients instead of counting every recipient per poll.
            CREATE TABLE campaign_tallies (
                campaign_id TEXT NOT NULL,
                queued BIGINT NOT NULL,
                leased BIGINT NOT NULL,
                delivered BIGINT NOT NULL,
                rejected BIGINT NOT NULL,
                failed BIGINT NOT NULL,
                skipped BIGINT NOT NULL,
                cancelled BIGINT NOT NULL
            );
            CREATE INDEX campaign_tallies_campaign ON campaign_tallies (campaign_id);
            INSERT INTO campaign_tallies (campaign_id, queued, leased, delivered, rejected, failed, skipped, cancelled)
            SELECT d.notification_id,
                SUM(CASE WHEN d.state = 'queued' THEN 1 ELSE 0 END), SUM(CASE WHEN d.state = 'leased' THEN 1 ELSE 0 END),
                SUM(CASE WHEN d.state = 'delivered' THEN 1 ELSE 0 END),
                SUM(CASE WHEN d.state = 'rejected' THEN 1 ELSE 0 END),
                SUM(CASE WHEN d.state = 'failed' THEN 1 ELSE 0 END), SUM(CASE WHEN d.state = 'skipped' THEN 1 ELSE 0 END),
                SUM(CASE WHEN d.state = 'cancelled' THEN 1 ELSE 0 END)
            FROM deliveries d JOIN notifications n ON n.id = d.notification_id
            WHERE n.kind = 'campaign' GROUP BY d.notification_id;
            -- Nothing counts by it now, and every change of state rewrote it.
            DROP INDEX deliveries_notification_state;
            """
        ),
        (
            "8i-deliveries-without-notification-check",
            """
            -- PostgreSQL checked each recipient's notification_id against notifications with a trigger per row
            -- (~3 µs a row at intake). Recipients are only inserted in the transaction that inserts their
            -- notification or holds its row locked, and neither is ever deleted: the check can never fail.
            -- (SQLite's check is an in-process lookup; dropping it there means rebuilding the table.)
            {POSTGRES: ALTER TABLE deliveries DROP CONSTRAINT IF EXISTS deliveries_notification_id_fkey;}
            """
        ),
        (
            "9q-queue-batches",
            """
            -- The queue's due work as ranges of recipients (see QueueBatches): a lease takes batches and reads
            -- their recipients by range, writing none of their rows; the outcome writes a row once, changing no
            -- indexed column (PostgreSQL updates it in place, HOT, in the room the fillfactor leaves: a page
            -- keeps room for a second, slightly longer version of each row, the outcome's).
            CREATE TABLE queue_batches (
                id {ID},
                notification_id TEXT NOT NULL,
                first_id BIGINT NOT NULL,
                last_id BIGINT NOT NULL,
                size INTEGER NOT NULL,
                due_at {REAL} NOT NULL,
                lease_token TEXT,
                lease_until {REAL},
                leases INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX queue_batches_due ON queue_batches (due_at);
            CREATE INDEX queue_batches_lease ON queue_batches (lease_token);
            CREATE INDEX queue_batches_notification ON queue_batches (notification_id, first_id);
            -- What is queued or leased now, in batches of up to 500 of one notification, state and lease end
            -- in a run of ids: the queued ones free and due; the leased ones held ('migrated') until their
            -- lease ends, then due again with the same apns-ids.
            INSERT INTO queue_batches (notification_id, first_id, last_id, size, due_at, lease_token, lease_until, leases)
            SELECT notification_id, MIN(id), MAX(id), COUNT(*), MIN(due_at),
                CASE WHEN MIN(state) = 'leased' THEN 'migrated' END,
                CASE WHEN MIN(state) = 'leased' THEN MAX(lease_until) END,
                CASE WHEN MIN(state) = 'leased' THEN MAX(leases) ELSE 0 END
            FROM (
                SELECT notification_id, id, state, due_at, lease_until, leases, island,
                    (ROW_NUMBER() OVER (PARTITION BY notification_id, state, lease_until, island ORDER BY id) - 1)
                        / 500 AS chunk
                FROM (
                    SELECT notification_id, id, state, due_at, lease_until, leases,
                        ROW_NUMBER() OVER (PARTITION BY notification_id ORDER BY id)
                            - ROW_NUMBER() OVER (PARTITION BY notification_id, state, lease_until ORDER BY id) AS island
                    FROM deliveries WHERE state IN ('queued', 'leased')) AS runs) AS due
            GROUP BY notification_id, state, lease_until, island, chunk;
            DROP INDEX deliveries_queued;
            DROP INDEX deliveries_leased;
            {POSTGRES: ALTER TABLE deliveries SET (fillfactor = 45);}
            """
        ),
        ReceiptSchema.migration,
        (
            "30-segments",
            """
            -- Segments (issue 35): the app version as a number that sorts as versions do (AppVersionNumber;
            -- filled for older rows by numberAppVersions), a device's taps by time (last_seen_days, tapped),
            -- and segments saved by name.
            ALTER TABLE devices ADD COLUMN version_number BIGINT;
            CREATE INDEX devices_version ON devices (app, version_number);
            CREATE INDEX tap_events_token ON tap_events (app, token, received_at);
            CREATE TABLE segments (
                app TEXT NOT NULL,
                name TEXT NOT NULL,
                expression TEXT NOT NULL,
                updated_at {REAL} NOT NULL,
                PRIMARY KEY (app, name)
            );
            """
        ),
        (
            "30-event-stream",
            """
            -- The event stream's rows, raised in the transactions that change what they report and removed once
            -- the relay's outbox holds them. A recipient's events name its row (their fields are read from it
            -- when claimed); a tap or a campaign's end carries its fields and a key that raises it once.
            CREATE TABLE stream_events (
                id {ID},
                type TEXT NOT NULL,
                delivery_id BIGINT,
                event_key TEXT UNIQUE,
                detail TEXT,
                created_at {REAL} NOT NULL,
                claimed_until {REAL}
            );
            """
        ),
        (
            "20-when",
            """
            -- When a notification or campaign is sent (issue 35): its `send_at` (NULL: at once) and its
            -- campaign-wide rate, read back with it; per-recipient due times stay in the batches' due_at.
            ALTER TABLE notifications ADD COLUMN send_at {REAL};
            ALTER TABLE notifications ADD COLUMN throttle_per_minute INTEGER;
            -- A throttled campaign's next free send slot, shared by every process's lease (the row is locked
            -- in the lease's transaction, after its batches: see SendRate).
            CREATE TABLE campaign_rates (
                notification_id TEXT PRIMARY KEY,
                per_minute INTEGER NOT NULL,
                next_slot {REAL} NOT NULL
            );
            -- Why a free batch waits past its notification's send time ('quiet_hours'), counted as held.
            ALTER TABLE queue_batches ADD COLUMN held TEXT;
            -- 1: the batch's campaign has a rate (the lease asks campaign_rates only for these).
            ALTER TABLE queue_batches ADD COLUMN throttled INTEGER;
            -- A device's IANA time zone (local-time sends) and its own quiet hours (minutes after midnight).
            ALTER TABLE devices ADD COLUMN time_zone TEXT;
            ALTER TABLE devices ADD COLUMN quiet_start INTEGER;
            ALTER TABLE devices ADD COLUMN quiet_end INTEGER;
            """
        ),
        (
            "50-latency-outcome-wakes",
            """
            -- 1: a request waits for this notification's outcomes (issue 34's wait_seconds); on PostgreSQL the
            -- process recording them sends a NOTIFY, so the waiting request wakes wherever it runs.
            ALTER TABLE notifications ADD COLUMN wake_on_outcome INTEGER;
            """
        ),
        ExperimentSchema.migration,
        (
            "50-frequency-cap",
            """
            -- Frequency caps (issue 35): a notification of an app with a cap carries it (its sends count toward
            -- it; cap_held 1: its recipients over it are skipped), and every send of such an app is recorded per
            -- device when leased, so a lease counts a device's sends in the window with one index range read.
            ALTER TABLE notifications ADD COLUMN cap_max INTEGER;
            ALTER TABLE notifications ADD COLUMN cap_seconds {REAL};
            ALTER TABLE notifications ADD COLUMN cap_held INTEGER;
            CREATE TABLE device_sends (
                delivery_id {KEY},
                app TEXT NOT NULL,
                token TEXT NOT NULL,
                sent_at {REAL} NOT NULL
            );
            CREATE INDEX device_sends_device ON device_sends (app, token, sent_at);
            -- Campaign recipients skipped over the cap, beside the counts by state (skipped includes them).
            ALTER TABLE campaign_tallies ADD COLUMN frequency_capped BIGINT NOT NULL DEFAULT 0;
            """
        ),
        (
            "51-devices-time-zone",
            """
            -- The `time_zone` segment leaf (issue 35): the app's devices in one zone by an index range, not a scan.
            CREATE INDEX devices_time_zone ON devices (app, time_zone);
            """
        ),
        (
            "50-webhook-leases",
            """
            -- The webhook's events and the stream's batches are posted from the store by whichever process
            -- leases them (no outbox file of one process): a lease's token says who may finish them, and
            -- claimed_until is the lease's expiry or, with no token, the end of a failed post's backoff.
            ALTER TABLE webhook_events ADD COLUMN lease_token TEXT;
            ALTER TABLE webhook_events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE stream_events ADD COLUMN lease_token TEXT;
            ALTER TABLE stream_events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
            """
        ),
        (
            "60-quiet-hours-at-lease",
            """
            -- Quiet hours re-checked at lease (issue 35): a notification whose recipients they hold carries its
            -- app's window (minutes after local midnight) and default zone, so a lease taking a recipient inside
            -- its device's window now puts it back until the window's end (QuietHoursAtLease).
            ALTER TABLE notifications ADD COLUMN quiet_start INTEGER;
            ALTER TABLE notifications ADD COLUMN quiet_end INTEGER;
            ALTER TABLE notifications ADD COLUMN quiet_zone TEXT;
            """
        ),
        (
            "61-experiment-variant-payloads",
            """
            -- An experiment's recipient sent its variant in the test (issue 36) names it in its delivery row:
            -- the tallies count it from there (no experiment_recipients row each), and it is sent its
            -- variant's payload, stored once per campaign and variant as a plain campaign's is once.
            ALTER TABLE deliveries ADD COLUMN variant TEXT;
            CREATE TABLE variant_payloads (
                notification_id TEXT NOT NULL REFERENCES notifications (id),
                variant TEXT NOT NULL,
                payload {BLOB} NOT NULL,
                PRIMARY KEY (notification_id, variant)
            );
            """
        ),
        AudienceSchema.migration,
        (
            "64-device-tags-by-token",
            """
            -- A device's tags by its token: registering, re-registering and forgetting a device delete its tags
            -- by (app, token), which the primary key (app, tag, token) cannot find without reading every tag
            -- of the app (2.4 million entries for 1,000,000 devices of 2.4 tags: each registration read them all).
            CREATE INDEX device_tags_token ON device_tags (app, token);
            """
        ),
        AudienceCoveringSchema.migration,
        (
            "66-language-payloads",
            """
            -- A recipient of a notification with "localized" text whose device reads one of its languages (issue
            -- 35) names the language in its delivery row and is sent that language's payload, stored once per
            -- notification (and experiment variant; '' outside a test) as the default text's and each variant's
            -- are: a campaign in 5 languages stores 5 payloads, not one per recipient. A keyed table of its own
            -- beside shared_payloads and variant_payloads, not one re-keyed table for all: nothing is copied, and
            -- an older process reads the rows it knows as before. It does not read the language: see Install.md
            -- (no localized sends until every older process is replaced).
            ALTER TABLE deliveries ADD COLUMN language TEXT;
            CREATE TABLE language_payloads (
                notification_id TEXT NOT NULL REFERENCES notifications (id),
                variant TEXT NOT NULL,
                language TEXT NOT NULL,
                payload {BLOB} NOT NULL,
                PRIMARY KEY (notification_id, variant, language)
            );
            """
        ),
        AudienceTableSchema.migration,
        AudienceBitsSchema.migration,
    ]

    /// The key of the PostgreSQL advisory lock migrations run under ("pbstore" in ASCII).
    static let advisoryLock: Int64 = 0x7062_7374_6f72_65

    /// The SQLite store's migrator: the shared one of `PushbuttonSQLite` (migrations under the write lock, the
    /// same refusal of a newer database as the outbox's), which also refuses a database that is not a gateway
    /// store (an outbox, say) untouched.
    static let sqliteMigrator = SQLiteMigrator(
        kind: "a Pushbutton gateway store",
        migrations: migrations.map { (name: $0.name, sql: SQLDialect.sqlite.render($0.sql)) },
        recognises: { $0.contains("schema_migrations") && $0.contains("devices") })

    /// Applies the migrations an SQLite store lacks (of the first `count`: a test makes an older store with
    /// fewer); returns their names.
    @discardableResult
    static func migrateSQLite(_ database: SQLiteDatabase, now: Date, through count: Int = migrations.count)
        throws(StoreError) -> [String]
    {
        let migrator =
            count == migrations.count
            ? sqliteMigrator
            : SQLiteMigrator(
                kind: "a Pushbutton gateway store",
                migrations: migrations.prefix(count).map { (name: $0.name, sql: SQLDialect.sqlite.render($0.sql)) },
                recognises: { $0.contains("schema_migrations") && $0.contains("devices") })
        do {
            return try migrator.migrate(database, now: now.timeIntervalSince1970)
        } catch {
            throw StoreError(error)
        }
    }

    /// Applies the migrations the database lacks, in `dialect` (PostgreSQL; SQLite goes through
    /// ``migrateSQLite(_:now:)``); returns their names.
    @discardableResult
    static func migrate(
        _ connection: any SQLConnection, dialect: SQLDialect, now: Date, through count: Int = migrations.count
    ) throws(StoreError) -> [String] {
        try connection.transaction { () throws(StoreError) -> [String] in
            if dialect == .postgres {
                // Several processes may start at once: one migrates, the others wait for it here. An advisory
                // lock (held to the end of the transaction), taken before anything else: two concurrent
                // CREATE TABLE IF NOT EXISTS both pass the check and one then fails on the catalog's unique key.
                try connection.query("SELECT pg_advisory_xact_lock(?)", [.integer(Self.advisoryLock)])
            }
            // SQLite: the write transaction (BEGIN IMMEDIATE) already holds the database's one write lock.
            try connection.script(
                dialect.render(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at {REAL} NOT NULL)"))
            let applied = Set(try connection.query("SELECT name FROM schema_migrations").compactMap { $0.first?.text })
            let known = Set(migrations.prefix(count).map(\.name))
            if let unknown = applied.subtracting(known).sorted().first {
                throw StoreError(
                    .newerSchema,
                    "the database has migration '\(unknown)', which this Pushbutton does not know: it was made by a newer version",
                    context: "migrating the gateway store")
            }
            var ran: [String] = []
            for migration in migrations.prefix(count) where !applied.contains(migration.name) {
                // A migration of the other store only (65) is recorded with nothing to run: PostgreSQL refuses
                // an empty script.
                let sql = dialect.render(migration.sql)
                if !sql.allSatisfy(\.isWhitespace) { try connection.script(sql) }
                try connection.query(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    [.text(migration.name), .real(now.timeIntervalSince1970)])
                ran.append(migration.name)
            }
            return ran
        }
    }
}
