/// Migration 69: the audience table, one narrow row per active device with only what a segment tests (issue 35),
/// so a count reads a table a fraction of the devices' size instead of every wide device row (on PostgreSQL the
/// devices table of a million devices was 435 MB, its rows rewritten by every tap, and a count's scan read it
/// through the OS page cache: it did not fit `shared_buffers`). Kept by triggers on the devices table, in the
/// writing transaction, so every write (an older process's during a rolling update, and the tap log's trigger
/// moving a device's last taps) keeps it right; an inactive or forgotten device has no row.
///
/// Its columns: `seen_at` is the device's last registration or change or tap (`last_seen_days` tests one column);
/// `language` is the locale's first subtag (before the first `-` or `_`), which every locale a `locale` leaf
/// matches shares with it, so a leaf first compares that (on PostgreSQL about half the time for `zh-Hant`);
/// `tags` is the devices' compact JSON tag list with `,` for its `[` and no `]`, so a plain tag is one search for
/// `,"tag"` (``SegmentSQL``); after the app the fixed-width columns come first (PostgreSQL reads a row's columns
/// in order, each variable-width one's length before the next).
enum AudienceTableSchema {
    /// The audience row of a device row (`row` its columns' prefix: `NEW.` in a trigger), as the values of
    /// ``columns``; `greatest` is the dialect's two-argument maximum, `find` its position of a string in another.
    static func values(of row: String, greatest: String, find: String) -> String {
        "\(row)app, \(row)version_number, "
            + "\(greatest)(\(row)updated_at, coalesce(\(row)last_tap_at, \(row)updated_at)), \(row)last_button_at, "
            + "\(language(of: row, find: find)), \(row)locale, \(row)time_zone, "
            + "',' || substr(\(row)tags, 2, length(\(row)tags) - 2), \(row)user_id, \(row)token"
    }

    /// The audience row's `language` of a device row: its locale's first subtag (NULL without a locale).
    static func language(of row: String, find: String) -> String {
        let dashed = "replace(\(row)locale, '_', '-')"
        return "substr(\(dashed), 1, \(find)(\(dashed) || '-', '-') - 1)"
    }

    /// The audience table's columns after `app` and its key, as `CREATE TABLE` defines them.
    static let columnDefinitions = """
        version_number BIGINT,
            seen_at {REAL} NOT NULL,
            last_button_at {REAL},
            language TEXT,
            locale TEXT,
            time_zone TEXT,
            tags TEXT NOT NULL,
            user_id TEXT,
            token TEXT NOT NULL,
            PRIMARY KEY (app, token)
        """

    /// The audience table's columns, in the order of ``values(of:greatest:find:)``.
    static let columns =
        "app, version_number, seen_at, last_button_at, language, locale, time_zone, tags, user_id, token"

    static let migration = (
        name: "69-audience-table",
        sql: """
        CREATE TABLE audience (
            app TEXT NOT NULL,
            \(columnDefinitions)
        ){POSTGRES:  WITH (fillfactor = 90)}{SQLITE:  WITHOUT ROWID};
        -- PostgreSQL: room in each page for a tap's new version of its rows (HOT: no index entry, pruned in place).
        -- SQLite: a row replaced by a delete and an insert (a trigger's OR REPLACE gives way to the writing
        -- statement's conflict policy, which an upsert of the device makes ABORT).
        -- The triggers first, then the fill: on PostgreSQL creating a trigger waits for the writers of devices
        -- under way and holds off the next ones until the migration commits, so the fill reads every committed
        -- write and a later one goes through the trigger.
        {POSTGRES: CREATE FUNCTION devices_audience() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                DELETE FROM audience WHERE app = OLD.app AND token = OLD.token
                    AND (TG_OP = 'DELETE' OR OLD.app <> NEW.app OR OLD.token <> NEW.token OR NEW.active <> 1);
            END IF;
            IF TG_OP <> 'DELETE' AND NEW.active = 1 THEN
                INSERT INTO audience (\(columns)) VALUES (\(values(of: "NEW.", greatest: "GREATEST", find: "strpos")))
                ON CONFLICT (app, token) DO UPDATE SET version_number = excluded.version_number,
                    seen_at = excluded.seen_at, last_button_at = excluded.last_button_at,
                    language = excluded.language, locale = excluded.locale, time_zone = excluded.time_zone,
                    tags = excluded.tags, user_id = excluded.user_id
                WHERE (audience.version_number, audience.seen_at, audience.last_button_at, audience.locale,
                        audience.time_zone, audience.tags, audience.user_id)
                    IS DISTINCT FROM (excluded.version_number, excluded.seen_at, excluded.last_button_at,
                        excluded.locale, excluded.time_zone, excluded.tags, excluded.user_id);
            END IF;
            RETURN NULL;
        END $$;
        CREATE TRIGGER devices_audience AFTER INSERT OR UPDATE OR DELETE ON devices
            FOR EACH ROW EXECUTE FUNCTION devices_audience();}
        {SQLITE: \(sqliteTriggers(columns: columns, values: values(of: "NEW.", greatest: "max", find: "instr")))}
        INSERT INTO audience (\(columns))
        SELECT \(values(of: "", greatest: "{POSTGRES: GREATEST}{SQLITE: max}", find: "{POSTGRES: strpos}{SQLITE: instr}"))
        FROM devices WHERE active = 1;
        -- Statistics of the new table for the planner at once (PostgreSQL's autovacuum would take them later).
        ANALYZE audience;
        """
    )

    /// SQLite's triggers keeping the audience table: each write of a device row replaces its audience row by one
    /// of `values` (of `NEW.`) in `columns` (a row replaced by a delete and an insert: a trigger's OR REPLACE
    /// gives way to the writing statement's conflict policy, which an upsert of the device makes ABORT).
    static func sqliteTriggers(columns: String, values: String) -> String {
        """
        CREATE TRIGGER devices_audience_insert AFTER INSERT ON devices WHEN NEW.active = 1 BEGIN
            DELETE FROM audience WHERE app = NEW.app AND token = NEW.token;
            INSERT INTO audience (\(columns)) VALUES (\(values));
        END;
        CREATE TRIGGER devices_audience_update AFTER UPDATE ON devices BEGIN
            DELETE FROM audience WHERE app = OLD.app AND token = OLD.token;
            DELETE FROM audience WHERE app = NEW.app AND token = NEW.token;
            INSERT INTO audience (\(columns))
                SELECT \(values) WHERE NEW.active = 1;
        END;
        CREATE TRIGGER devices_audience_delete AFTER DELETE ON devices BEGIN
            DELETE FROM audience WHERE app = OLD.app AND token = OLD.token;
        END;
        """
    }
}
