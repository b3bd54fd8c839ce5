/// Migration 62: what makes an audience count one pass over the app's active devices, each leaf of the segment
/// a test of the device's own row (``SegmentSQL``), rather than a probe of the tap log per device.
enum AudienceSchema {
    static let migration = (
        name: "62-audience-count",
        sql: """
        -- A device's last tap of any kind and last button tap (issue 35's last_seen_days and tapped), kept by a
        -- trigger on the tap log: taps recorded by any process, an older one during a rolling update too, move
        -- them. Filled here from the taps already recorded, in one pass over the tap log (no table rewrite:
        -- the columns have no default; 22 s on PostgreSQL for 1,000,000 taps of 250,000 devices under load).
        ALTER TABLE devices ADD COLUMN last_tap_at {REAL};
        ALTER TABLE devices ADD COLUMN last_button_at {REAL};
        UPDATE devices SET last_tap_at = t.last_tap, last_button_at = t.last_button
        FROM (SELECT app, token, MAX(received_at) AS last_tap,
                MAX(CASE WHEN response = 'button' THEN received_at END) AS last_button
            FROM tap_events GROUP BY app, token) AS t
        WHERE devices.app = t.app AND devices.token = t.token;
        {SQLITE: CREATE TRIGGER tap_events_seen AFTER INSERT ON tap_events BEGIN
            UPDATE devices SET last_tap_at = max(coalesce(last_tap_at, NEW.received_at), NEW.received_at),
                last_button_at = CASE WHEN NEW.response = 'button'
                    THEN max(coalesce(last_button_at, NEW.received_at), NEW.received_at) ELSE last_button_at END
            WHERE app = NEW.app AND token = NEW.token;
        END;}
        {POSTGRES: CREATE FUNCTION tap_events_seen() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE devices SET last_tap_at = GREATEST(last_tap_at, NEW.received_at),
                last_button_at = CASE WHEN NEW.response = 'button'
                    THEN GREATEST(last_button_at, NEW.received_at) ELSE last_button_at END
            WHERE app = NEW.app AND token = NEW.token;
            RETURN NULL;
        END $$;
        CREATE TRIGGER tap_events_seen AFTER INSERT ON tap_events FOR EACH ROW EXECUTE FUNCTION tap_events_seen();}
        -- A tapped category's devices by one index range (both stores read it alone: no table row per tap).
        CREATE INDEX tap_events_tapped ON tap_events (app, response, category, received_at, token);
        -- SQLite: every column a segment tests, of the active devices only, in one index, so a count reads it
        -- alone (never the table) from start to end of the app's range. PostgreSQL's parallel scan of the
        -- table was as fast as an index-only scan of such an index, and a tag list of up to 20 KB does not fit
        -- in a B-tree entry there.
        {SQLITE: CREATE INDEX devices_audience ON devices (app, locale, version_number, time_zone, updated_at,
            last_tap_at, last_button_at, user_id, tags, token) WHERE active = 1;}
        """
    )
}
