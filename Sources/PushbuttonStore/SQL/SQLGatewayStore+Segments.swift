import Foundation

/// Segments in SQL (``SegmentSQL``): counts and keyset pages of the devices they reach, and saved segments.
extension SQLGatewayStore: SegmentStore {
    /// How many active devices `segment` reaches: one `COUNT(*)` with the compiled condition over the audience
    /// table (migration 69: a narrow row per active device). A segment whose devices must be of one user starts
    /// from the user's devices (the devices' user index), one led by a rare tag (``TagLead``) from the tag's
    /// devices in the tag index, each testing the segment on those devices' audience rows; any other reads every
    /// audience row of the app.
    public func countDevices(app: String, segment: Segment, now: Date) throws(StoreError) -> Int {
        try countDevices(app: app, segment: segment, now: now, rareTagLimit: nil)
    }

    /// ``countDevices(app:segment:now:)`` with tags rare under `rareTagLimit` tag-index rows (nil: under
    /// ``TagLead/limit``; 0: no tag is rare, every count a scan, as before TagLead: the benchmark's comparison).
    package func countDevices(app: String, segment: Segment, now: Date, rareTagLimit: Int?) throws(StoreError)
        -> Int
    {
        try read { connection throws(StoreError) -> Int in
            let count = try countStatement(
                app: app, segment: segment, now: now, rareTagLimit: rareTagLimit, connection: connection)
            return Int(try connection.query(count.sql, count.values).first?[0].integer ?? 0)
        }
    }

    /// The `COUNT(*)` statement of ``countDevices(app:segment:now:rareTagLimit:)``, its lead tag found on
    /// `connection`.
    func countStatement(
        app: String, segment: Segment, now: Date, rareTagLimit: Int?, connection: any SQLConnection
    ) throws(StoreError) -> (sql: String, values: [SQLValue]) {
        if let user = Self.namedUser(segment) {
            return led(
                from: "devices u", where: "u.app = ? AND u.user_id = ?", [.text(app), .text(user)],
                condition: SegmentSQL(segment, app: app, now: now, dialect: dialect), app: app)
        }
        if let lead = try TagLead.find(
            in: segment, app: app, limit: rareTagLimit ?? TagLead.limit, connection: connection)
        {
            return led(
                from: "device_tags u", where: "u.app = ? AND u.tag = ?", [.text(app), .text(lead.tag)],
                condition: SegmentSQL(lead.rest, app: app, now: now, dialect: dialect), app: app)
        }
        let compiled = SegmentSQL(segment, app: app, now: now, dialect: dialect)
        return (
            "SELECT COUNT(*) FROM audience d WHERE d.app = ? AND " + compiled.condition, [.text(app)] + compiled.values
        )
    }

    /// A count of the devices `from` (aliased `u`, with their `token`) finds by an index (`where` and its values)
    /// whose audience row meets `condition`, each looked up by its key. SQLite's CROSS JOIN keeps `from` the outer
    /// loop; on PostgreSQL a LATERAL subquery with a LIMIT does (its planner misjudged a condition's selectivity and
    /// hashed the whole audience instead: `vip and fr` 378–524 ms against 120–197 ms by key on a million devices).
    private func led(from: String, where filter: String, _ keys: [SQLValue], condition: SegmentSQL, app: String)
        -> (sql: String, values: [SQLValue])
    {
        let row = "d.app = ? AND d.token = u.token AND " + condition.condition
        if dialect == .postgres {
            return (
                "SELECT COUNT(*) FROM \(from) CROSS JOIN LATERAL (SELECT 1 FROM audience d WHERE \(row) LIMIT 1) AS a "
                    + "WHERE \(filter)", [.text(app)] + condition.values + keys
            )
        }
        return (
            "SELECT COUNT(*) FROM \(from) CROSS JOIN audience d WHERE \(filter) AND \(row)",
            keys + [.text(app)] + condition.values
        )
    }

    /// The user every device `segment` reaches is of (a `user` leaf, alone or among the parts of its `and`s,
    /// nested ones too: the first), or nil.
    static func namedUser(_ segment: Segment) -> String? {
        TagLead.conjuncts(of: segment).lazy.compactMap { part -> String? in
            if case .user(let user) = part { return user }
            return nil
        }.first
    }

    /// A keyset page of the active devices `segment` reaches, in token order.
    public func devices(app: String, segment: Segment, now: Date, after: String?, limit: Int) throws(StoreError)
        -> [(token: String, locale: String?)]
    {
        let compiled = SegmentSQL(segment, app: app, now: now, dialect: dialect)
        return try read { connection throws(StoreError) in
            try connection.query(
                "SELECT d.token, d.locale FROM audience d WHERE d.app = ? AND d.token > ? AND "
                    + compiled.condition + " ORDER BY d.token LIMIT ?",
                [.text(app), .text(after ?? "")] + compiled.values + [.integer(Int64(limit))]
            ).compactMap { row in row[0].text.map { (token: $0, locale: row[1].text) } }
        }
    }

    /// The registered locales of `tokens`, a statement per 500.
    public func locales(app: String, tokens: [String]) throws(StoreError) -> [String: String] {
        var locales: [String: String] = [:]
        try read { connection throws(StoreError) in
            for start in stride(from: 0, to: tokens.count, by: Self.rowsPerStatement) {
                let chunk = tokens[start..<min(start + Self.rowsPerStatement, tokens.count)]
                let rows = try connection.query(
                    "SELECT token, locale FROM devices WHERE app = ? AND locale IS NOT NULL AND token IN ("
                        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")",
                    [.text(app)] + chunk.map { .text($0) })
                for row in rows { if let token = row[0].text, let locale = row[1].text { locales[token] = locale } }
            }
        }
        return locales
    }

    /// Saves or replaces a segment (an upsert on app and name).
    public func saveSegment(app: String, _ segment: SavedSegment) throws(StoreError) {
        _ = try with { connection throws(StoreError) in
            try connection.query(
                """
                INSERT INTO segments (app, name, expression, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (app, name) DO UPDATE SET expression = excluded.expression, updated_at = excluded.updated_at
                """,
                [.text(app), .text(segment.name), .text(segment.expression), Self.time(segment.updatedAt)])
        }
    }

    /// A saved segment, or nil.
    public func savedSegment(app: String, name: String) throws(StoreError) -> SavedSegment? {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT name, expression, updated_at FROM segments WHERE app = ? AND name = ?",
                [.text(app), .text(name)]
            ).first.map(Self.savedSegment)
        }
    }

    /// The app's saved segments, by name.
    public func savedSegments(app: String) throws(StoreError) -> [SavedSegment] {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT name, expression, updated_at FROM segments WHERE app = ? ORDER BY name", [.text(app)]
            ).map(Self.savedSegment)
        }
    }

    /// Deletes a saved segment; whether there was one.
    public func deleteSegment(app: String, name: String) throws(StoreError) -> Bool {
        try with { connection throws(StoreError) in
            try connection.run("DELETE FROM segments WHERE app = ? AND name = ?", [.text(app), .text(name)]).changes
                > 0
        }
    }

    private static func savedSegment(_ row: [SQLValue]) -> SavedSegment {
        SavedSegment(
            name: row[0].text ?? "", expression: row[1].text ?? "{}",
            updatedAt: date(row[2]) ?? Date(timeIntervalSince1970: 0))
    }

    /// Gives the devices registered before migration 30 their ``AppVersionNumber`` (new registrations write
    /// it themselves), a page at a time by key, once: afterwards none is left without one.
    static func numberAppVersions(_ connection: any SQLConnection) throws(StoreError) {
        while true {
            let rows = try connection.query(
                "SELECT app, token, app_version FROM devices WHERE version_number IS NULL ORDER BY app, token LIMIT 1000"
            )
            guard !rows.isEmpty else { return }
            try connection.transaction { () throws(StoreError) in
                for row in rows {
                    try connection.query(
                        "UPDATE devices SET version_number = ? WHERE app = ? AND token = ?",
                        [.integer(AppVersionNumber.stored(row[2].text)), row[0], row[1]])
                }
            }
        }
    }
}
