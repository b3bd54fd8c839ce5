/// The tap events table and the notifications' categories, as one named migration of ``StoreMigrations``.
enum TapSchema {
    static let migration = (
        name: "4-tap-events",
        sql: """
        -- What devices report (POST /v1/apps/{app}/taps). The event id is the device's: a retried batch
        -- finds its events here and stores nothing twice. Joined to notifications by id only when read.
        CREATE TABLE tap_events (
            app TEXT NOT NULL,
            event_id TEXT NOT NULL,
            token TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            campaign_id TEXT,
            category TEXT NOT NULL,
            response TEXT NOT NULL CHECK (response IN ('button', 'body', 'dismiss')),
            button TEXT,
            foreground INTEGER NOT NULL,
            latency_ms BIGINT,
            reply TEXT,
            responded_at {REAL} NOT NULL,
            received_at {REAL} NOT NULL,
            PRIMARY KEY (app, event_id)
        );
        CREATE INDEX tap_events_notification ON tap_events (app, notification_id);
        -- Each notification's category, noted from its stored request when stats are first read, so a
        -- category's stats select its notifications by index rather than by reading every request.
        CREATE TABLE notification_categories (
            notification_id TEXT PRIMARY KEY,
            app TEXT NOT NULL,
            category TEXT
        );
        CREATE INDEX notification_categories_category ON notification_categories (app, category);
        """
    )
}
