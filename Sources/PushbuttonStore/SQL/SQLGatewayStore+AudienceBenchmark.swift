import Foundation

/// What `Benchmarks/AudienceBenchmark` needs of a store and the API does not give: devices made in bulk by the
/// database itself (a million registrations one by one would take the run), and the floor a count is measured
/// against.
extension SQLGatewayStore {
    /// Makes `count` devices of `app` in one statement per table, spread as a real app's are (each column by its
    /// own pseudo-random permille of the device's number, so the columns are not correlated): 8% inactive
    /// (uninstalled); 15 locales, English the most common (`en-US` 30%, `fr` 13%, `zh-Hant` 2%, none 1%); 10
    /// app versions, the newest the most common, 1% unparsable (`nightly`); 70% with a user (two devices each);
    /// 10 time zones and none for 10%; last registered over the year before `now`, most recently the most;
    /// 2.4 tags each on average: one of 50 `city-N` each, `interest-N` (60%, one of 20), `newsletter` (45%),
    /// `premium` (20%), `beta` (10%), `churn-risk` (5%), `vip` (1%) and `early-access` (0.1%); and a tap log of
    /// `count` taps by a quarter of the devices (four each) over the 90 days before `now`, of four categories
    /// (`order` 40%) and three responses (`button` 60%).
    package func makeBenchmarkDevices(app: String, count: Int, now: Date) throws(StoreError) {
        let series =
            dialect == .postgres
            ? "generate_series(CAST(1 AS BIGINT), CAST(? AS BIGINT)) AS n(i)"
            : "(WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ?) SELECT i FROM s) AS n"
        let token = dialect == .postgres ? "lpad(to_hex(n.i), 64, '0')" : "printf('%064x', n.i)"
        let time = now.timeIntervalSince1970
        try with { connection throws(StoreError) in
            // SQLite: the load inserts into the devices' indexes out of their order, each page of them touched
            // again and again; in the writer's few MiB of cache that took 8 minutes for a million devices. A
            // cache that holds them for the load, then the writer's own again.
            let cache = dialect == .sqlite ? try connection.query("PRAGMA cache_size").first?[0].integer : nil
            if cache != nil { try connection.script("PRAGMA cache_size=-1048576") }
            defer { if let cache { try? connection.script("PRAGMA cache_size=\(cache)") } }
            try connection.transaction { () throws(StoreError) in
                try connection.query(
                    """
                    INSERT INTO devices (app, token, environment, locale, app_version, user_id, tags, registered_at,
                        updated_at, active, inactive_since, version_number, time_zone)
                    SELECT ?, \(token), 'production', \(Self.cases(Self.permille(1), Self.benchmarkLocales)),
                        \(Self.cases(Self.permille(2), Self.benchmarkVersions.map { ($0, "'\($1)'") })),
                        CASE WHEN \(Self.permille(3)) < 700 THEN 'u-' || (n.i / 2) END,
                        \(Self.benchmarkTagList), seen - (\(Self.permille(5)) % 400) * 86400.0, seen,
                        CASE WHEN \(Self.permille(6)) < 920 THEN 1 ELSE 0 END,
                        CASE WHEN \(Self.permille(6)) < 920 THEN NULL ELSE seen END,
                        \(Self.cases(Self.permille(2), Self.benchmarkVersions.map { ($0, "\(AppVersionNumber.stored($1))") })),
                        \(Self.cases(Self.permille(7), Self.benchmarkZones))
                    FROM (SELECT n.i, ? - (\(Self.permille(4)) * \(Self.permille(4)) / 2740) * 86400.0 AS seen
                        FROM \(series)) AS n
                    """, [.text(app), .real(time), .integer(Int64(count))])
                for (tag, condition) in Self.benchmarkTags {
                    try connection.query(
                        "INSERT INTO device_tags (app, tag, token) SELECT ?, \(tag), \(token) FROM \(series) WHERE \(condition)",
                        [.text(app), .integer(Int64(count))])
                }
                let device = "(1 + (\(Self.permille(8, of: 1_000_003)) % \(max(1, count / 4))) * 4)"
                let deviceToken =
                    dialect == .postgres ? "lpad(to_hex(\(device)), 64, '0')" : "printf('%064x', \(device))"
                try connection.query(
                    """
                    INSERT INTO tap_events (app, event_id, token, notification_id, category, response, button,
                        foreground, responded_at, received_at)
                    SELECT ?, 't' || n.i, \(deviceToken), 'n_' || (n.i % 500),
                        \(Self.cases(Self.permille(9), [(400, "'order'"), (700, "'chat'"), (900, "'promo'"), (nil, "'survey'")])),
                        \(Self.cases(Self.permille(10), [(600, "'button'"), (900, "'body'"), (nil, "'dismiss'")])),
                        CASE WHEN \(Self.permille(10)) < 600 THEN 'track' END, 0, at, at
                    FROM (SELECT n.i, ? - \(Self.permille(11, of: 1_000_003)) * 7.776 AS at FROM \(series)) AS n
                    """, [.text(app), .real(time), .integer(Int64(count))])
            }
        }
        try with { connection throws(StoreError) in
            try connection.script(dialect == .postgres ? "VACUUM ANALYZE" : "ANALYZE")
        }
    }

    /// A pseudo-random number of the device `n.i` below `modulus` (a permille by default), its own for each `seed`:
    /// multiplication modulo a prime, a permutation of the numbers below it.
    private static func permille(_ seed: Int, of modulus: Int = 1000) -> String {
        let multipliers = [
            7919, 104_729, 15_485_863, 32_452_843, 49_979_687, 67_867_967, 86_028_121, 982_451_653, 413_158_511,
            694_847_539, 179_424_673, 373_587_883, 1_299_709, 15_485_867, 32_452_867, 49_979_693, 67_867_979,
            86_028_157, 104_395_301, 122_949_823,
        ]
        return "((n.i * \(multipliers[seed])) % 1000003 % \(modulus))"
    }

    /// `CASE WHEN value < bound THEN result …`, the last without a bound as the `ELSE`.
    private static func cases(_ value: String, _ choices: [(Int?, String)]) -> String {
        "CASE"
            + choices.map { bound, result in bound.map { " WHEN \(value) < \($0) THEN \(result)" } ?? " ELSE \(result)"
            }
            .joined() + " END"
    }

    private static let benchmarkLocales: [(Int?, String)] = [
        (300, "'en-US'"), (380, "'en-GB'"), (480, "'fr-FR'"), (510, "'fr_CA'"), (610, "'de-DE'"), (630, "'de-CH'"),
        (710, "'es-ES'"), (750, "'es-MX'"), (810, "'pt-BR'"), (870, "'ja-JP'"), (910, "'zh-Hans-CN'"),
        (930, "'zh-TW'"), (970, "'it-IT'"), (990, "'ru'"), (nil, "NULL"),
    ]

    private static let benchmarkVersions: [(Int?, String)] = [
        (20, "1.9"), (70, "2.0"), (120, "2.0.1"), (200, "2.1"), (300, "2.1.3"), (400, "2.2"), (500, "2.10"),
        (650, "3.0"), (800, "3.0.1"), (990, "3.1"), (nil, "nightly"),
    ]

    private static let benchmarkZones: [(Int?, String)] = [
        (250, "'America/New_York'"), (350, "'America/Los_Angeles'"), (450, "'Europe/London'"),
        (600, "'Europe/Paris'"), (700, "'Europe/Berlin'"), (760, "'Asia/Tokyo'"), (800, "'America/Sao_Paulo'"),
        (830, "'Australia/Sydney'"), (870, "'Asia/Shanghai'"), (900, "'Europe/Madrid'"), (nil, "NULL"),
    ]

    /// Each tag (an SQL expression of `n.i`) and when a device has it.
    private static let benchmarkTags: [(String, String)] = [
        ("'city-' || \(permille(0, of: 50))", "1 = 1"),
        ("'interest-' || \(permille(12, of: 20))", "\(permille(13)) < 600"),
        ("'newsletter'", "\(permille(14)) < 450"), ("'premium'", "\(permille(15)) < 200"),
        ("'beta'", "\(permille(16)) < 100"), ("'churn-risk'", "\(permille(17)) < 50"),
        ("'vip'", "\(permille(18)) < 10"), ("'early-access'", "\(permille(19, of: 10000)) < 10"),
    ]

    /// The devices' `tags` column: the JSON array of their ``benchmarkTags``.
    private static var benchmarkTagList: String {
        "'[' || rtrim("
            + benchmarkTags.map { tag, condition in "CASE WHEN \(condition) THEN '\"' || \(tag) || '\",' ELSE '' END" }
            .joined(separator: " || ") + ", ',') || ']'"
    }

    /// The floor: a plain count of the app's active devices, no segment; of their rows in the devices table, or
    /// in the audience table a segment's count reads (migration 69).
    package func countActiveDevices(app: String, inAudience: Bool = false) throws(StoreError) -> Int {
        try read { connection throws(StoreError) in
            Int(
                try connection.query(
                    inAudience
                        ? "SELECT COUNT(*) FROM audience WHERE app = ?"
                        : "SELECT COUNT(*) FROM devices WHERE app = ? AND active = 1", [.text(app)]
                ).first?[0].integer ?? 0)
        }
    }
}
