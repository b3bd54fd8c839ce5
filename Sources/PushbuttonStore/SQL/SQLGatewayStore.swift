import Foundation
import Pushbutton

/// ``GatewayStore`` on SQL: the same statements on SQLite (``sqlite(path:)``, one process) and PostgreSQL
/// (``postgres(url:connections:)``, many processes sharing one queue).
public final class SQLGatewayStore: GatewayStore {
    let pool: ConnectionPool
    /// Connections for statements that only read. With SQLite these are their own (WAL lets them read while
    /// the one writer writes), so a progress query over a large campaign never holds up the workers.
    let readers: ConnectionPool
    let dialect: SQLDialect
    /// Where it is, without credentials.
    public let location: String
    /// The headers and shared payloads of notifications leased lately (they never change once stored).
    let headers = NotificationHeaders()
    /// SQLite's campaign pages, committed in groups (at most about three pages of 10,000 a group, so a lease
    /// waits behind no more than that).
    let intake = GroupCommit<AppendedPage, Int?>(maximumWeight: 30_000)
    /// Who is woken when an intake commits (``observeCommittedWork(_:)``).
    let committedWork: CommittedWork

    init(
        pool: ConnectionPool, readers: ConnectionPool? = nil, dialect: SQLDialect, location: String,
        committedWork: CommittedWork = CommittedWork()
    ) {
        self.pool = pool
        self.readers = readers ?? pool
        self.dialect = dialect
        self.location = location
        self.committedWork = committedWork
    }

    /// Opens (creating, mode 0600) the SQLite database at `path` and applies missing migrations.
    public static func sqlite(path: String, now: Date = Date()) throws(StoreError) -> SQLGatewayStore {
        // The writer's page cache holds what leases and outcomes work on (a few batches of rows, the ends of
        // the indexes): 4 MiB measured as fast as 16 MiB, which filled during a campaign and made up ~12 MiB
        // of the server's peak.
        let connection = try SQLiteConnection(path: path, cacheKiB: 4096)
        try StoreMigrations.migrateSQLite(connection.database, now: now)
        let readers: [any SQLConnection] = [try SQLiteConnection(path: path), try SQLiteConnection(path: path)]
        return SQLGatewayStore(
            pool: ConnectionPool([connection]), readers: ConnectionPool(readers), dialect: .sqlite,
            location: "sqlite:\(path)")
    }

    func with<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
        try pool.with(body)
    }

    private func read<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
        try readers.with(body)
    }

    static func time(_ date: Date) -> SQLValue { .real(date.timeIntervalSince1970) }
    static func date(_ value: SQLValue) -> Date? {
        value.real.map { Date(timeIntervalSince1970: $0) }
    }

    // MARK: Devices

    private static let deviceColumns =
        "app, token, environment, locale, app_version, user_id, tags, registered_at, updated_at, active, inactive_since"

    private static func device(_ row: [SQLValue]) -> DeviceRecord {
        let tags = (try? JSONParser.parse(row[6].text ?? "[]"))?.arrayValue?.compactMap(\.stringValue) ?? []
        let registration = DeviceRegistration(
            app: row[0].text ?? "", token: row[1].text ?? "", environment: row[2].text ?? "", locale: row[3].text,
            appVersion: row[4].text, userID: row[5].text, tags: tags,
            registeredAt: date(row[7]) ?? Date(timeIntervalSince1970: 0))
        return DeviceRecord(
            registration: registration, active: row[9].integer == 1, inactiveSince: date(row[10]),
            updatedAt: date(row[8]) ?? registration.registeredAt)
    }

    public func register(_ device: DeviceRegistration, now: Date) throws(StoreError) -> DeviceRecord {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> DeviceRecord in
                let existing = try connection.query(
                    "SELECT \(Self.deviceColumns) FROM devices WHERE app = ? AND token = ?",
                    [.text(device.app), .text(device.token)]
                ).first.map(Self.device)
                var active = true
                var inactiveSince: Date?
                if let existing, !existing.active, let since = existing.inactiveSince, device.registeredAt <= since {
                    // An older registration than the token's death: it stays dead.
                    active = false
                    inactiveSince = since
                }
                let tags = String(decoding: JSONWriter.compact(.array(device.tags.map { .string($0) })), as: UTF8.self)
                let values: [SQLValue] = [
                    .text(device.app), .text(device.token), .text(device.environment), device.locale.sql,
                    device.appVersion.sql, device.userID.sql, .text(tags), Self.time(device.registeredAt),
                    Self.time(now), .integer(active ? 1 : 0), inactiveSince.map(Self.time) ?? .null,
                ]
                try connection.query(
                    """
                    INSERT INTO devices (\(Self.deviceColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (app, token) DO UPDATE SET environment = excluded.environment,
                        locale = excluded.locale, app_version = excluded.app_version, user_id = excluded.user_id,
                        tags = excluded.tags, registered_at = excluded.registered_at, updated_at = excluded.updated_at,
                        active = excluded.active, inactive_since = excluded.inactive_since
                    """, values)
                try connection.query(
                    "DELETE FROM device_tags WHERE app = ? AND token = ?", [.text(device.app), .text(device.token)])
                for tag in Set(device.tags) {
                    try connection.query(
                        "INSERT INTO device_tags (app, tag, token) VALUES (?, ?, ?)",
                        [.text(device.app), .text(tag), .text(device.token)])
                }
                return DeviceRecord(registration: device, active: active, inactiveSince: inactiveSince, updatedAt: now)
            }
        }
    }

    public func forget(app: String, token: String) throws(StoreError) -> Bool {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Bool in
                try connection.query("DELETE FROM device_tags WHERE app = ? AND token = ?", [.text(app), .text(token)])
                return try connection.run(
                    "DELETE FROM devices WHERE app = ? AND token = ?", [.text(app), .text(token)]
                )
                .changes > 0
            }
        }
    }

    public func device(app: String, token: String) throws(StoreError) -> DeviceRecord? {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.deviceColumns) FROM devices WHERE app = ? AND token = ?", [.text(app), .text(token)]
            ).first.map(Self.device)
        }
    }

    public func tokens(app: String, audience: Audience, limit: Int) throws(StoreError) -> [String] {
        try read { connection throws(StoreError) in
            switch audience {
            case .tokens(let tokens): return Array(tokens.prefix(limit))
            case .user(let user):
                return try connection.query(
                    "SELECT token FROM devices WHERE app = ? AND user_id = ? AND active = 1 ORDER BY token LIMIT ?",
                    [.text(app), .text(user), .integer(Int64(limit))]
                ).compactMap { $0[0].text }
            case .tag(let tag):
                return try connection.query(
                    """
                    SELECT t.token FROM device_tags t JOIN devices d ON d.app = t.app AND d.token = t.token
                    WHERE t.app = ? AND t.tag = ? AND d.active = 1 ORDER BY t.token LIMIT ?
                    """, [.text(app), .text(tag), .integer(Int64(limit))]
                ).compactMap { $0[0].text }
            }
        }
    }

    public func isInactive(app: String, token: String) throws(StoreError) -> Bool {
        try read { connection throws(StoreError) in
            !(try connection.query(
                "SELECT 1 FROM devices WHERE app = ? AND token = ? AND active = 0", [.text(app), .text(token)]
            ).isEmpty)
        }
    }

    public func markInactive(app: String, token: String, since: Date, now: Date) throws(StoreError) -> Bool {
        try with { connection throws(StoreError) in
            try Self.markInactive(app: app, token: token, since: since, now: now, connection)
        }
    }

    private static func markInactive(
        app: String, token: String, since: Date, now: Date, _ connection: any SQLConnection
    ) throws(StoreError) -> Bool {
        try connection.run(
            """
            UPDATE devices SET active = 0, inactive_since = ?, updated_at = ?
            WHERE app = ? AND token = ? AND registered_at < ? AND (active = 1 OR inactive_since < ?)
            """,
            [Self.time(since), Self.time(now), .text(app), .text(token), Self.time(since), Self.time(since)]
        ).changes > 0
    }

    // MARK: The queue

    /// Recipients just inserted whose device is registered and inactive are not sent: skipped, in the same
    /// transaction, so no worker ever sees them queued.
    private func skipInactive(notification id: String, from first: Int64, now: Date, _ connection: any SQLConnection)
        throws(StoreError) -> Int
    {
        try connection.run(
            """
            UPDATE deliveries SET state = 'skipped', reason = 'DeviceInactive', finished_at = ?
            WHERE notification_id = ? AND id >= ? AND state = 'queued' AND EXISTS (
                SELECT 1 FROM devices d WHERE d.app = deliveries.app AND d.token = deliveries.token AND d.active = 0)
            """, [Self.time(now), .text(id), .integer(first)]
        ).changes
    }

    /// Rows per multi-row INSERT or UPDATE: one round trip to PostgreSQL (and one statement for SQLite) per
    /// this many recipients, well under either database's limit on bound values.
    static let rowsPerStatement = 500

    /// The payload `id`'s recipients share: the stored one, or else `candidate`, stored as it. Concurrent
    /// appends to one campaign agree on one (PostgreSQL's second INSERT waits for the first, then reads it).
    private func sharedPayload(for id: String, candidate: [UInt8], _ connection: any SQLConnection)
        throws(StoreError) -> [UInt8]
    {
        try connection.query(
            "INSERT INTO shared_payloads (notification_id, payload) VALUES (?, ?) ON CONFLICT (notification_id) DO NOTHING",
            [.text(id), .blob(candidate)])
        guard
            let stored = try connection.query(
                "SELECT payload FROM shared_payloads WHERE notification_id = ?", [.text(id)]
            ).first?[0].blob
        else { throw StoreError("the shared payload vanished", context: "INSERT INTO shared_payloads") }
        return stored
    }

    /// Inserts recipients with multi-row INSERTs (PostgreSQL: COPY, from ``rowsToCopy`` on); returns the
    /// smallest new row id, or for an SQLite page a bound at or below it (all new rows are at or above it, no
    /// other row of the notification is). A recipient whose payload is `shared` (set from the first recipient when nil)
    /// gets no row in `payloads`. The new rows' ids are added to `newIDs` where they are known (PostgreSQL
    /// and a few rows; an SQLite page sets it to nil).
    @discardableResult
    private func insert(
        _ deliveries: ArraySlice<NewDelivery>, of spec: NotificationSpec, shared: inout [UInt8]?, now: Date,
        tallies: inout CampaignTallies, newIDs: inout [Int64]?, into connection: any SQLConnection
    ) throws(StoreError) -> Int64? {
        guard !deliveries.isEmpty else { return nil }
        if shared == nil, let candidate = deliveries.first?.payload {
            shared = try sharedPayload(for: spec.id, candidate: candidate, connection)
        }
        if deliveries.count >= Self.rowsToCopy, let postgres = connection as? PostgresConnection {
            return try copy(
                deliveries, of: spec, shared: shared, now: now, tallies: &tallies, newIDs: &newIDs, into: postgres)
        }
        // SQLite (one writer, in this transaction) numbers new rows above the largest id: for a page, that
        // bound is the smallest id the skip of inactive devices needs, without a row returned per recipient
        // (a few recipients, a single notification's, come back by RETURNING: one statement fewer).
        var first: Int64?
        let bounded = dialect == .sqlite && deliveries.count >= Self.rowsToCopy
        if bounded {
            first = (try connection.query("SELECT MAX(id) FROM deliveries").first?[0].integer ?? 0) + 1
            newIDs = nil
        }
        let notification = SQLValue.text(spec.id)
        let app = SQLValue.text(spec.app)
        let time = Self.time(now)
        var skipped = 0
        for chunk in StatementShapes.chunks(deliveries.count) {
            let (start, end) = (deliveries.startIndex + chunk.lowerBound, deliveries.startIndex + chunk.upperBound)
            var values: [SQLValue] = []
            values.reserveCapacity((end - start) * 8)
            for delivery in deliveries[start..<end] {
                values.append(notification)
                values.append(app)
                values.append(.text(delivery.token))
                values.append(.text(delivery.apnsID))
                if let reason = delivery.skippedBecause {
                    skipped += 1
                    values.append(Self.skippedState)
                    values.append(time)
                    values.append(.text(reason))
                    values.append(time)
                } else {
                    values.append(Self.queuedState)
                    values.append(time)
                    values.append(.null)
                    values.append(.null)
                }
            }
            // Only recipients with a payload of their own need their row id matched (RETURNING's order is not
            // promised, so by apns-id); the rest only tell the smallest id (unless the bound above is known).
            let ownPayloads = deliveries[start..<end].contains { $0.payload != shared }
            let returning = ownPayloads ? " RETURNING id, apns_id" : bounded ? "" : " RETURNING id"
            let rows = try connection.query(Self.insertDeliveries(end - start) + returning, values)
            if !bounded, let lowest = rows.compactMap({ $0[0].integer }).min() {
                first = min(first ?? lowest, lowest)
                newIDs? += rows.compactMap { $0[0].integer }
            }
            guard ownPayloads else { continue }
            var ids: [String: Int64] = [:]
            for row in rows { if let id = row[0].integer, let apnsID = row[1].text { ids[apnsID] = id } }
            var payloads: [SQLValue] = []
            for delivery in deliveries[start..<end] where delivery.payload != shared {
                guard let id = ids[delivery.apnsID] else {
                    throw StoreError("an inserted recipient did not come back", context: "INSERT INTO deliveries")
                }
                payloads += [.integer(id), .blob(delivery.payload)]
            }
            for rows in StatementShapes.chunks(payloads.count / 2) {
                try connection.query(
                    "INSERT INTO payloads (delivery_id, payload) VALUES "
                        + Array(repeating: "(?, ?)", count: rows.count).joined(separator: ", "),
                    Array(payloads[2 * rows.lowerBound..<2 * rows.upperBound]))
            }
        }
        if spec.kind == .campaign {
            tallies.add(spec.id, .queued, deliveries.count - skipped)
            tallies.add(spec.id, .skipped, skipped)
        }
        return first
    }

    private static let queuedState = SQLValue.text(DeliveryState.queued.rawValue)
    private static let skippedState = SQLValue.text(DeliveryState.skipped.rawValue)

    /// `INSERT INTO deliveries … VALUES` with `count` rows, written once per row count (a few: see
    /// ``StatementShapes``).
    private static func insertDeliveries(_ count: Int) -> String {
        insertStatements[count] ?? insertText(count)
    }

    private static let insertStatements = Dictionary(
        uniqueKeysWithValues: StatementShapes.sizes.map { ($0, insertText($0)) })

    private static func insertText(_ count: Int) -> String {
        "INSERT INTO deliveries (notification_id, app, token, apns_id, state, due_at, reason, finished_at) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
    }

    public func enqueue(
        _ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> EnqueueResult {
        let result = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> EnqueueResult in
                if let idempotency {
                    let inserted = try connection.run(
                        """
                        INSERT INTO idempotency_keys (app, key, fingerprint, notification_id, created_at)
                        VALUES (?, ?, ?, ?, ?) ON CONFLICT (app, key) DO NOTHING
                        """,
                        [
                            .text(spec.app), .text(idempotency.key), .text(idempotency.fingerprint), .text(spec.id),
                            Self.time(now),
                        ])
                    if inserted.changes == 0 {
                        let row = try connection.query(
                            "SELECT notification_id, fingerprint FROM idempotency_keys WHERE app = ? AND key = ?",
                            [.text(spec.app), .text(idempotency.key)])
                        guard let first = row.first, let id = first[0].text else {
                            throw StoreError("the idempotency key vanished", context: "enqueue")
                        }
                        return .replayed(id: id, sameRequest: first[1].text == idempotency.fingerprint)
                    }
                }
                try connection.query(
                    """
                    INSERT INTO notifications (id, app, kind, state, topic, push_type, priority, expiration,
                        collapse_id, created_at, request)
                    VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(spec.id), .text(spec.app), .text(spec.kind.rawValue), .text(spec.topic),
                        .text(spec.pushType), spec.priority.sql, spec.expiration.sql, spec.collapseID.sql,
                        Self.time(spec.createdAt), .blob(spec.request),
                    ])
                var shared: [UInt8]?
                var tallies = CampaignTallies()
                var newIDs: [Int64]? = []
                let first = try insert(
                    deliveries[...], of: spec, shared: &shared, now: now, tallies: &tallies, newIDs: &newIDs,
                    into: connection)
                if let first {
                    let skipped = try skipInactive(notification: spec.id, from: first, now: now, connection)
                    if spec.kind == .campaign { tallies.move(spec.id, from: .queued, to: .skipped, skipped) }
                    try QueueBatches.create(notification: spec.id, from: first, ids: newIDs, due: now, connection)
                    try notifyCommittedWork(connection)
                }
                try tallies.write(into: connection)
                return .created(id: spec.id)
            }
        }
        if case .created = result, !deliveries.isEmpty { committedWorkHere() }
        return result
    }

    private static let specColumns =
        "id, app, kind, state, topic, push_type, priority, expiration, collapse_id, created_at, request"

    private static func spec(_ row: [SQLValue]) -> (NotificationSpec, String) {
        let spec = NotificationSpec(
            id: row[0].text ?? "", app: row[1].text ?? "",
            kind: NotificationSpec.Kind(rawValue: row[2].text ?? "") ?? .notification, topic: row[4].text ?? "",
            pushType: row[5].text ?? "alert", priority: row[6].integer.map(Int.init), expiration: row[7].integer,
            collapseID: row[8].text, createdAt: date(row[9]) ?? Date(timeIntervalSince1970: 0),
            request: row[10].blob ?? [])
        return (spec, row[3].text ?? "open")
    }

    public func append(
        campaign id: String, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> Int? {
        guard dialect == .sqlite else {
            let added = try with { connection throws(StoreError) in
                try connection.transaction { () throws(StoreError) -> Int? in
                    // PostgreSQL copies a page at once, streamed from `produce` a copy at a time.
                    let added = try append(campaign: id, now: now, connection) { flush throws(StoreError) in
                        var buffer: [NewDelivery] = []
                        buffer.reserveCapacity(Self.rowsPerCopy)
                        // `produce` calls back into `flush` only from this thread, within this call.
                        try withoutActuallyEscaping(flush) { flush throws(StoreError) in
                            try produce { (delivery: NewDelivery) throws(StoreError) in
                                buffer.append(delivery)
                                if buffer.count == Self.rowsPerCopy {
                                    try flush(buffer[...])
                                    buffer.removeAll(keepingCapacity: true)
                                }
                            }
                        }
                        try flush(buffer[...])
                    }
                    if let added, added > 0 { try notifyCommittedWork(connection) }
                    return added
                }
            }
            if let added, added > 0 { committedWorkHere() }
            return added
        }
        // SQLite: the page is read on the caller's thread, then committed with the pages that arrive while the
        // one writer commits others (one transaction and one fsync for the group); answered once it is durable.
        var deliveries: [NewDelivery] = []
        try produce { (delivery: NewDelivery) throws(StoreError) in deliveries.append(delivery) }
        let added = try intake.submit(
            AppendedPage(campaign: id, now: now, deliveries: deliveries), weight: deliveries.count,
            run: appendGroup)
        if let added, added > 0 { committedWorkHere() }
        return added
    }

    /// Appends a group of pages in one transaction; if any fails, each again in its own (a failed page does
    /// not fail the others).
    private func appendGroup(_ pages: [AppendedPage]) -> [Result<Int?, StoreError>] {
        func one(_ page: AppendedPage, _ connection: any SQLConnection) throws(StoreError) -> Int? {
            // SQLite inserts in multi-row statements, straight from the page's array.
            try append(campaign: page.campaign, now: page.now, connection) { flush throws(StoreError) in
                for start in stride(from: 0, to: page.deliveries.count, by: Self.rowsPerStatement) {
                    try flush(page.deliveries[start..<min(start + Self.rowsPerStatement, page.deliveries.count)])
                }
            }
        }
        // Without SQLite's check of each new row's notification_id against notifications (a lookup per
        // recipient, ~0.7 µs): `append` reads the campaign's row first in the same transaction and adds
        // nothing unless it is there, and notifications are never deleted, so the check cannot fail
        // (PostgreSQL dropped it in migration 8i). The pragma only takes effect outside a transaction.
        func unchecked<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
            try with { connection throws(StoreError) in
                try connection.script("PRAGMA foreign_keys=OFF")
                defer { try? connection.script("PRAGMA foreign_keys=ON") }
                return try body(connection)
            }
        }
        if pages.count > 1 {
            let together = Result { () throws(StoreError) -> [Int?] in
                try unchecked { connection throws(StoreError) in
                    try connection.transaction { () throws(StoreError) -> [Int?] in
                        var counts: [Int?] = []
                        for page in pages { counts.append(try one(page, connection)) }
                        return counts
                    }
                }
            }
            if case .success(let counts) = together { return counts.map { .success($0) } }
        }
        return pages.map { page in
            Result { () throws(StoreError) -> Int? in
                try unchecked { connection throws(StoreError) in
                    try connection.transaction { () throws(StoreError) -> Int? in try one(page, connection) }
                }
            }
        }
    }

    /// One page of a campaign's recipients, inside the caller's transaction: `feed` hands its recipients to
    /// `flush` a statement's or a COPY's worth at a time.
    private func append(
        campaign id: String, now: Date, _ connection: any SQLConnection,
        feed: (_ flush: (ArraySlice<NewDelivery>) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> Int? {
        // PostgreSQL: the campaign's row stays locked until the page is in, so a cancel waits for the
        // page and then cancels it too, or (when first) makes this append see the campaign closed.
        guard
            let row = try connection.query(
                "SELECT \(Self.specColumns) FROM notifications WHERE id = ? AND kind = 'campaign'"
                    + dialect.lockRow,
                [.text(id)]
            ).first
        else { return nil }
        let (spec, state) = Self.spec(row)
        guard state == "open" else { return nil }
        var count = 0
        var first: Int64?
        var shared: [UInt8]?
        var tallies = CampaignTallies()
        var newIDs: [Int64]? = []
        var skippedAtIntake = false
        try feed { (deliveries: ArraySlice<NewDelivery>) throws(StoreError) in
            count += deliveries.count
            if !skippedAtIntake {
                skippedAtIntake = deliveries.indices.contains { deliveries[$0].skippedBecause != nil }
            }
            if let lowest = try insert(
                deliveries, of: spec, shared: &shared, now: now, tallies: &tallies, newIDs: &newIDs,
                into: connection)
            {
                first = min(first ?? lowest, lowest)
            }
        }
        if let first {
            let skipped = try skipInactive(notification: spec.id, from: first, now: now, connection)
            tallies.move(spec.id, from: .queued, to: .skipped, skipped)
            var ids = newIDs
            if ids == nil, skipped == 0, !skippedAtIntake {
                ids = try Self.consecutiveIDs(from: first, count: count, connection)
            }
            try QueueBatches.create(notification: spec.id, from: first, ids: ids, due: now, connection)
        }
        try tallies.write(into: connection)
        return count
    }

    /// The ids of an SQLite page of `count` new rows, all at or above `first` (the bound ``insert`` gave),
    /// when they are exactly `first` and the ones after it (as SQLite numbers the rows of its one writer):
    /// then the page's batches are made from them, instead of reading every row back through a window query
    /// (about 1.5 µs a recipient). `nil` when they are not, and the page is read back.
    private static func consecutiveIDs(from first: Int64, count: Int, _ connection: any SQLConnection)
        throws(StoreError) -> [Int64]?
    {
        guard count > 0,
            let last = try connection.query("SELECT MAX(id) FROM deliveries").first?[0].integer,
            last - first + 1 == Int64(count)
        else { return nil }
        return Array(first...last)
    }

    public func lease(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [LeasedDelivery] {
        let token = UUID().uuidString.lowercased()
        let (rows, payloads, specs, sharedBy) = try with { connection throws(StoreError) in
            // A lease is committed without waiting for the disk (SQLite: synchronous=NORMAL for this one
            // transaction; PostgreSQL: synchronous_commit off): a killed process loses nothing the kernel has,
            // and a lease lost with the machine's power is an expired lease (its rows due again, same
            // apns-ids). Outcomes, intake and everything else stay durable.
            if dialect == .sqlite { try connection.script("PRAGMA synchronous=NORMAL") }
            defer { if dialect == .sqlite { try? connection.script("PRAGMA synchronous=FULL") } }
            return try connection.transaction {
                () throws(StoreError) -> ([LeasedRow], [Int64: [UInt8]], [String: [SQLValue]], [String: [UInt8]]) in
                if dialect == .postgres { try connection.script("SET LOCAL synchronous_commit = off") }
                let rows = try QueueBatches.lease(
                    limit: limit, token: token, until: now + duration, now: now, dialect: dialect, connection)
                // The recipients' own payloads (a campaign's per-recipient data); the rest share their
                // notification's, looked up once per notification below rather than kept per row.
                var payloads: [Int64: [UInt8]] = [:]
                var start = 0
                if let low = rows.lazy.map(\.id).min(), let high = rows.lazy.map(\.id).max(),
                    high - low < Int64(4 * rows.count + Self.rowsPerStatement)
                {
                    // Leases take due rows mostly in id order: one range read instead of a statement per chunk
                    // (an id in the range not leased here is another lease's: skipped below, by lookup).
                    for row in try connection.query(
                        "SELECT delivery_id, payload FROM payloads WHERE delivery_id BETWEEN ? AND ?",
                        [.integer(low), .integer(high)])
                    {
                        if let id = row[0].integer { payloads[id] = row[1].blob ?? [] }
                    }
                    if !payloads.isEmpty {
                        let leasedIDs = Set(rows.map(\.id))
                        payloads = payloads.filter { leasedIDs.contains($0.key) }
                    }
                    start = rows.count
                }
                while start < rows.count {
                    let end = min(start + Self.rowsPerStatement, rows.count)
                    var ids = rows[start..<end].map { SQLValue.integer($0.id) }
                    // Padded with the last id repeated: a few statement shapes, not one per count.
                    ids += Array(repeating: ids[ids.count - 1], count: StatementShapes.padded(ids.count) - ids.count)
                    for row in try connection.query(
                        "SELECT delivery_id, payload FROM payloads WHERE delivery_id IN ("
                            + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")", ids)
                    {
                        if let id = row[0].integer { payloads[id] = row[1].blob ?? [] }
                    }
                    start = end
                }
                // The headers are the notification's (each row has copies): read once per notification, not
                // turned into strings again for each recipient, and kept for the next leases. Rows come mostly
                // grouped by notification: the last one's are at hand without a lookup.
                var specs: [String: [SQLValue]] = [:]
                var last: String?
                for row in rows {
                    let notification = row.notification
                    guard notification != last else { continue }
                    last = notification
                    guard specs[notification] == nil else { continue }
                    if let kept = headers.spec(notification) {
                        specs[notification] = kept
                        continue
                    }
                    let spec =
                        try connection.query(
                            "SELECT app, topic, push_type, priority, expiration, collapse_id, kind FROM notifications WHERE id = ?",
                            [.text(notification)]
                        ).first ?? []
                    specs[notification] = spec
                    if !spec.isEmpty { headers.keep(spec: spec, for: notification) }
                }
                // The shared payloads of the notifications with a row without its own.
                var sharedBy: [String: [UInt8]] = [:]
                last = nil
                for row in rows where payloads.isEmpty || payloads[row.id] == nil {
                    let notification = row.notification
                    guard notification != last else { continue }
                    last = notification
                    guard sharedBy[notification] == nil else { continue }
                    if let kept = headers.shared(notification) {
                        sharedBy[notification] = kept
                    } else {
                        let shared =
                            try connection.query(
                                "SELECT payload FROM shared_payloads WHERE notification_id = ?", [.text(notification)]
                            ).first?[0].blob
                        sharedBy[notification] = shared ?? []
                        if let shared { headers.keep(shared: shared, for: notification) }
                    }
                }
                // The campaigns' tallies, a move per run of rows of one campaign.
                var tallies = CampaignTallies()
                var run: (notification: String, count: Int)?
                for row in rows {
                    let notification = row.notification
                    guard row.wasQueued, let spec = specs[notification], spec.count > 6,
                        spec[6].text == NotificationSpec.Kind.campaign.rawValue
                    else { continue }
                    if run?.notification == notification {
                        run?.count += 1
                    } else {
                        if let run { tallies.move(run.notification, from: .queued, to: .leased, run.count) }
                        run = (notification, 1)
                    }
                }
                if let run { tallies.move(run.notification, from: .queued, to: .leased, run.count) }
                try tallies.write(into: connection)
                return (rows, payloads, specs, sharedBy)
            }
        }
        // One set of shared fields (and shared payload) per notification, referenced by its rows: made once,
        // the last notification's at hand without a lookup.
        var made: [String: (headers: LeaseHeaders, payload: [UInt8])] = [:]
        var last: (headers: LeaseHeaders, payload: [UInt8])?
        var leased: [LeasedDelivery] = []
        leased.reserveCapacity(rows.count)
        for row in rows {
            let notification = row.notification
            let shared: (headers: LeaseHeaders, payload: [UInt8])
            if let last, last.headers.fields.notificationID == notification {
                shared = last
            } else if let kept = made[notification] {
                shared = kept
            } else {
                let spec = specs[notification] ?? []
                func column(_ index: Int) -> SQLValue { index < spec.count ? spec[index] : .null }
                shared = (
                    LeaseHeaders(
                        notificationID: notification, app: column(0).text ?? "", topic: column(1).text ?? "",
                        pushType: column(2).text ?? "alert", priority: column(3).integer.map(Int.init),
                        expiration: column(4).integer, collapseID: column(5).text, leaseToken: token),
                    sharedBy[notification] ?? []
                )
                made[notification] = shared
            }
            last = shared
            let payload = payloads.isEmpty ? shared.payload : payloads[row.id] ?? shared.payload
            leased.append(
                LeasedDelivery(
                    id: row.id, token: row.token, apnsID: row.apnsID, payload: payload, leases: row.leases,
                    shared: shared.headers))
        }
        return leased
    }

    /// Records outcomes with one UPDATE per chunk, then the 410s' deactivations and the webhook events, in one
    /// transaction.
    public func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes
    {
        guard !results.isEmpty else { return RecordedOutcomes(recorded: []) }
        return try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> RecordedOutcomes in
                // The leases' batches first: an outcome counts only while its lease still holds them. A lease's
                // rows come together and share one token string: hashed once per run, not once per row.
                var tokens = Set<String>()
                var lastToken: String?
                // (By index, here and below: a `for result in results` copies each outcome, retaining its strings.)
                for index in results.indices where results[index].delivery.leaseToken != lastToken {
                    lastToken = results[index].delivery.leaseToken
                    tokens.insert(results[index].delivery.leaseToken)
                }
                let batches = try QueueBatches.lock(held: tokens, dialect: dialect, connection)
                var recorded = Set<Int64>()
                recorded.reserveCapacity(results.count)
                // Delivered, the usual outcome, needs only its row id: one `UPDATE … WHERE id IN (…)` per
                // lease and attempt count. The others carry a status and reason each.
                // (A handful of groups, nearly always one: searched from the last, not hashed per row.)
                var delivered: [(group: DeliveredGroup, ids: [Int64])] = []
                var others: [CompletedDelivery] = []
                var held = HeldBatches(batches)
                for index in results.indices {
                    let id = results[index].delivery.id
                    // A recipient whose batch its lease no longer holds is another lease's now: refused.
                    guard
                        held.holds(
                            token: results[index].delivery.leaseToken,
                            notification: results[index].delivery.notificationID, id: id)
                    else { continue }
                    if case .delivered = results[index].outcome {
                        let group = DeliveredGroup(
                            leases: results[index].delivery.leases, attempts: results[index].attempts)
                        if let at = delivered.lastIndex(where: { $0.group == group }) {
                            delivered[at].ids.append(id)
                        } else {
                            delivered.append((group, [id]))
                        }
                    } else {
                        others.append(results[index])
                    }
                }
                for (group, ids) in delivered {
                    try Self.recordDelivered(ids, group, now: now, into: &recorded, connection)
                }
                var start = 0
                while start < others.count {
                    let end = min(start + Self.rowsPerStatement, others.count)
                    var values: [SQLValue] = [Self.time(now)]
                    values.reserveCapacity(1 + StatementShapes.padded(end - start) * 7)
                    for result in others[start..<end] {
                        var status: SQLValue = .integer(200)
                        var reason: SQLValue = .null
                        var unregistered: SQLValue = .null
                        switch result.outcome {
                        case .delivered: break
                        case .rejected(let code, let text, let at):
                            status = .integer(Int64(code))
                            reason = .text(text)
                            unregistered = at.map(Self.time) ?? .null
                        case .failed(_, let cause):
                            status = .null
                            reason = .text(cause)
                        }
                        values += [
                            .integer(result.delivery.id), .text(result.outcome.state.rawValue), status, reason,
                            .integer(Int64(result.attempts)), unregistered, .integer(Int64(result.delivery.leases)),
                        ]
                    }
                    // Padded with rows whose id (-1) no recipient has: a few statement shapes, not one per count.
                    let count = StatementShapes.padded(end - start)
                    for _ in (end - start)..<count {
                        values += [.integer(-1), .text("failed"), .null, .null, .integer(0), .null, .integer(0)]
                    }
                    let rows = try connection.query(OutcomeStatements.each(count: count), values)
                    for row in rows { if let id = row[0].integer { recorded.insert(id) } }
                    start = end
                }
                // The campaigns' tallies: which notifications are campaigns is known from the lease (the
                // headers kept), else read; a move per run of one campaign's rows in one state.
                var kinds: [String: Bool] = [:]
                var unknown = Set<String>()
                var last: String?
                for index in results.indices where results[index].delivery.notificationID != last {
                    let notification = results[index].delivery.notificationID
                    last = notification
                    guard kinds[notification] == nil, !unknown.contains(notification) else { continue }
                    if let kept = headers.isCampaign(notification) {
                        kinds[notification] = kept
                    } else {
                        unknown.insert(notification)
                    }
                }
                if !unknown.isEmpty {
                    let campaigns = try CampaignTallies.campaigns(among: unknown, connection)
                    for notification in unknown { kinds[notification] = campaigns.contains(notification) }
                }
                // Whether each was recorded, looked up once (three loops ask).
                let wasRecorded = results.indices.map { recorded.contains(results[$0].delivery.id) }
                var tallies = CampaignTallies()
                var run: (notification: String, state: DeliveryState, count: Int)?
                // The last notification's kind at hand: a string hash per notification, not per row.
                var lastKind: (notification: String, isCampaign: Bool)?
                for index in results.indices where wasRecorded[index] {
                    let notification = results[index].delivery.notificationID
                    let state = results[index].outcome.state
                    let isCampaign: Bool
                    if let lastKind, lastKind.notification == notification {
                        isCampaign = lastKind.isCampaign
                    } else {
                        isCampaign = kinds[notification] == true
                        lastKind = (notification, isCampaign)
                    }
                    guard isCampaign else { continue }
                    if let current = run, current.notification == notification, current.state == state {
                        run?.count += 1
                    } else {
                        if let run { tallies.move(run.notification, from: .leased, to: run.state, run.count) }
                        run = (notification, state, 1)
                    }
                }
                if let run { tallies.move(run.notification, from: .leased, to: run.state, run.count) }
                try tallies.write(into: connection)
                try QueueBatches.removeFinished(batches, connection)
                // What follows from the recorded outcomes commits with them: a crash cannot keep the one and
                // lose the other.
                var deactivated: [String: Int] = [:]
                var events: [SQLValue] = []
                for index in results.indices where wasRecorded[index] {
                    if case .delivered = results[index].outcome { continue }
                    let result = results[index]
                    let delivery = result.delivery
                    switch result.outcome {
                    case .delivered: continue
                    case .rejected(let status, _, let at):
                        if status == 410,
                            try Self.markInactive(
                                app: delivery.app, token: delivery.token, since: at ?? now, now: now, connection)
                        {
                            deactivated[delivery.app, default: 0] += 1
                        }
                        let kind: WebhookEvent.Kind = status == 410 ? .deviceUnregistered : .notificationFailed
                        if webhookEvents { events += [.integer(delivery.id), .text(kind.rawValue), Self.time(now)] }
                    case .failed:
                        if webhookEvents {
                            events += [
                                .integer(delivery.id), .text(WebhookEvent.Kind.notificationFailed.rawValue),
                                Self.time(now),
                            ]
                        }
                    }
                }
                for rows in StatementShapes.chunks(events.count / 3) {
                    try connection.query(
                        "INSERT INTO webhook_events (delivery_id, type, created_at) VALUES "
                            + Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", ")
                            + " ON CONFLICT (delivery_id) DO NOTHING",
                        Array(events[3 * rows.lowerBound..<3 * rows.upperBound]))
                }
                return RecordedOutcomes(
                    recorded: wasRecorded, deactivated: deactivated,
                    webhookEvents: events.count / 3)
            }
        }
    }

    /// Delivered recipients with one lease count and one attempt count (one statement sets both).
    struct DeliveredGroup: Hashable {
        var leases: Int
        var attempts: Int
    }

    /// Records delivered recipients by id, a chunk per statement; when a chunk changes fewer rows than it
    /// has (a lease lost to another worker: rare), reads back which it did.
    private static func recordDelivered(
        _ ids: [Int64], _ group: DeliveredGroup, now: Date, into recorded: inout Set<Int64>,
        _ connection: any SQLConnection
    ) throws(StoreError) {
        var start = 0
        while start < ids.count {
            let end = min(start + rowsPerStatement, ids.count)
            let count = StatementShapes.padded(end - start)
            var idValues: [SQLValue] = []
            idValues.reserveCapacity(count)
            for id in ids[start..<end] { idValues.append(.integer(id)) }
            // Padded with an id no recipient has: a few statement shapes, not one per count.
            while idValues.count < count { idValues.append(.integer(-1)) }
            let (attempts, leases) = (SQLValue.integer(Int64(group.attempts)), SQLValue.integer(Int64(group.leases)))
            let changed = try connection.run(
                OutcomeStatements.delivered(count: count), [attempts, time(now), leases] + idValues
            ).changes
            if changed == end - start {
                recorded.formUnion(ids[start..<end])
            } else if changed > 0 {
                for row in try connection.query(
                    OutcomeStatements.recordedDelivered(count: count), idValues + [time(now), attempts, leases])
                {
                    if let id = row[0].integer { recorded.insert(id) }
                }
            }
            start = end
        }
    }

    public func release(_ deliveries: [LeasedDelivery]) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                let batches = try QueueBatches.lock(
                    held: Set(deliveries.map(\.leaseToken)), dialect: dialect, connection)
                let freed = try QueueBatches.free(batches, releasing: deliveries, connection)
                let campaigns = try CampaignTallies.campaigns(among: Set(freed.keys), connection)
                var tallies = CampaignTallies()
                for (notification, count) in freed where campaigns.contains(notification) {
                    tallies.move(notification, from: .leased, to: .queued, count)
                }
                try tallies.write(into: connection)
            }
        }
    }

    public func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord? {
        try read { connection throws(StoreError) in
            try record(id: id, limit: limit, after: after, connection)
        }
    }

    private func record(id: String, limit: Int, after: Int64, _ connection: any SQLConnection) throws(StoreError)
        -> NotificationRecord?
    {
        guard
            let row = try connection.query(
                "SELECT \(Self.specColumns) FROM notifications WHERE id = ?", [.text(id)]
            ).first
        else { return nil }
        let (spec, state) = Self.spec(row)
        var counts: [DeliveryState: Int] = [:]
        if spec.kind == .campaign {
            counts = try CampaignTallies.counts(of: id, connection)
        } else {
            for count in try connection.query(
                "SELECT state, COUNT(*) FROM deliveries WHERE notification_id = ? GROUP BY state", [.text(id)])
            {
                if let state = DeliveryState(rawValue: count[0].text ?? "") {
                    counts[state] = Int(count[1].integer ?? 0)
                }
            }
            // Queued in their rows, held by a lease in their batch.
            let held = counts[.queued] == nil ? 0 : try QueueBatches.held(id, connection)
            if held > 0 {
                counts[.queued] = (counts[.queued] ?? 0) - held
                counts[.leased, default: 0] += held
                if counts[.queued] == 0 { counts[.queued] = nil }
            }
        }
        var deliveries =
            limit <= 0
            ? []
            : try connection.query(
                """
                SELECT id, token, apns_id, state, status, reason, attempts, leases, finished_at, unregistered_at
                FROM deliveries WHERE notification_id = ? AND id > ? ORDER BY id LIMIT ?
                """, [.text(id), .integer(after), .integer(Int64(limit))]
            ).map { row in
                DeliveryRecord(
                    id: row[0].integer ?? 0, token: row[1].text ?? "", apnsID: row[2].text ?? "",
                    state: DeliveryState(rawValue: row[3].text ?? "") ?? .queued, status: row[4].integer.map(Int.init),
                    reason: row[5].text, attempts: Int(row[6].integer ?? 0), leases: Int(row[7].integer ?? 0),
                    finishedAt: Self.date(row[8]), unregisteredAt: Self.date(row[9]))
            }
        // Those without an outcome are leased while their batch is held, and leased as often as it was.
        if let low = deliveries.first?.id, let high = deliveries.last?.id,
            deliveries.contains(where: { !$0.state.isFinal })
        {
            let batches = try QueueBatches.overlapping(id, low: low, high: high, connection)
            for index in deliveries.indices where !deliveries[index].state.isFinal {
                let delivery = deliveries[index]
                guard
                    let batch = batches.first(where: {
                        ($0[0].integer ?? .max) <= delivery.id && delivery.id <= ($0[1].integer ?? .min)
                    })
                else { continue }
                if batch[2] != .null { deliveries[index].state = .leased }
                deliveries[index].leases = max(delivery.leases, Int(batch[3].integer ?? 0))
            }
        }
        return NotificationRecord(spec: spec, state: state, counts: counts, deliveries: deliveries)
    }

    public func cancel(campaign id: String, now: Date) throws(StoreError) -> NotificationRecord? {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> NotificationRecord? in
                let changed = try connection.run(
                    "UPDATE notifications SET state = 'cancelled' WHERE id = ? AND kind = 'campaign'", [.text(id)])
                guard changed.changes == 1 else { return nil }
                let cancelled = try QueueBatches.cancel(id, now: now, connection)
                var tallies = CampaignTallies()
                tallies.move(id, from: .queued, to: .cancelled, cancelled)
                try tallies.write(into: connection)
                return try record(id: id, limit: 0, after: 0, connection)
            }
        }
    }

    public func queueDepth() throws(StoreError) -> Int {
        try read { connection throws(StoreError) in
            Int(
                try connection.query(QueueBatches.depth).first?[0].integer ?? 0)
        }
    }

    public func ping() throws(StoreError) {
        try read { connection throws(StoreError) in _ = try connection.query("SELECT 1") }
    }
}
