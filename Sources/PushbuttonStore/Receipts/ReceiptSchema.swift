/// The display receipts table, as one named migration of ``StoreMigrations``.
enum ReceiptSchema {
    static let migration = (
        name: "40-display-receipts",
        sql: """
        -- What devices' service extensions report (POST /v1/apps/{app}/receipts): a notification received by a
        -- device. The event id is derived on the device from the token and the notification id, so a notification
        -- received twice, or a batch retried, stores one row. Joined to notifications by id only when read.
        CREATE TABLE display_receipts (
            app TEXT NOT NULL,
            event_id TEXT NOT NULL,
            token TEXT NOT NULL,
            notification_id TEXT NOT NULL,
            campaign_id TEXT,
            variant TEXT,
            received_at {REAL} NOT NULL,
            stored_at {REAL} NOT NULL,
            PRIMARY KEY (app, event_id)
        );
        CREATE INDEX display_receipts_notification ON display_receipts (app, notification_id);
        """
    )
}
