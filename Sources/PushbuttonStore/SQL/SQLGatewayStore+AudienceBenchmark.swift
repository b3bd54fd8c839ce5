import Foundation

/// What `Benchmarks/AudienceBenchmark` needs of a store and the API does not give: devices made in bulk by the
/// database itself (a million registrations one by one would take the run), and the floor a count is measured
/// against.
extension SQLGatewayStore {
    /// Makes `count` active devices of `app` in one statement per table: locales, versions, users, time zones and
    /// last-seen times cycling (every 10th tagged `beta`, every 100th with a button tap of `order`), times
    /// spread over the 90 days before `now`.
    package func makeBenchmarkDevices(app: String, count: Int, now: Date) throws(StoreError) {
        let series =
            dialect == .postgres
            ? "generate_series(1, ?) AS n(i)"
            : "(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) SELECT i FROM s) AS n"
        let token = dialect == .postgres ? "lpad(to_hex(n.i), 64, '0')" : "printf('%064x', n.i)"
        let time = now.timeIntervalSince1970
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                try connection.query(
                    """
                    INSERT INTO devices (app, token, environment, locale, app_version, user_id, tags, registered_at,
                        updated_at, active, version_number, time_zone)
                    SELECT ?, \(token), 'production',
                        CASE n.i % 5 WHEN 0 THEN 'fr-FR' WHEN 1 THEN 'en-US' WHEN 2 THEN 'de-CH' WHEN 3 THEN 'fr_CA'
                            ELSE 'es-ES' END,
                        CASE n.i % 3 WHEN 0 THEN '2.0' WHEN 1 THEN '2.1.3' ELSE '3.0' END,
                        'u-' || (n.i / 3), '[]', ? - (n.i % 90) * 86400.0, ? - (n.i % 90) * 86400.0, 1,
                        CASE n.i % 3 WHEN 0 THEN 2000000000000 WHEN 1 THEN 2000001000003 ELSE 3000000000000 END,
                        CASE n.i % 4 WHEN 0 THEN 'Europe/Paris' WHEN 1 THEN 'America/New_York' WHEN 2 THEN 'Asia/Tokyo'
                            ELSE NULL END
                    FROM \(series)
                    """, [.text(app), .real(time), .real(time), .integer(Int64(count))])
                try connection.query(
                    "INSERT INTO device_tags (app, tag, token) SELECT ?, 'beta', \(token) FROM \(series) WHERE n.i % 10 = 0",
                    [.text(app), .integer(Int64(count))])
                try connection.query(
                    """
                    INSERT INTO tap_events (app, event_id, token, notification_id, category, response, button,
                        foreground, responded_at, received_at)
                    SELECT ?, 'e' || n.i, \(token), 'n_bench', 'order', 'button', 'track', 0, ? - (n.i % 30) * 86400.0,
                        ? - (n.i % 30) * 86400.0
                    FROM \(series) WHERE n.i % 100 = 0
                    """, [.text(app), .real(time), .real(time), .integer(Int64(count))])
            }
        }
        try with { connection throws(StoreError) in
            try connection.script("ANALYZE")
        }
    }

    /// The floor: a plain count of the app's active devices, no segment.
    package func countActiveDevices(app: String) throws(StoreError) -> Int {
        try read { connection throws(StoreError) in
            Int(
                try connection.query("SELECT COUNT(*) FROM devices WHERE app = ? AND active = 1", [.text(app)]).first?[
                    0
                ]
                .integer ?? 0)
        }
    }
}
