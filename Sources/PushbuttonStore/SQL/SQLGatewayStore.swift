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

    init(pool: ConnectionPool, readers: ConnectionPool? = nil, dialect: SQLDialect, location: String) {
        self.pool = pool
        self.readers = readers ?? pool
        self.dialect = dialect
        self.location = location
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

    func read<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
        try readers.with(body)
    }

    static func time(_ date: Date) -> SQLValue { .real(date.timeIntervalSince1970) }
    static func date(_ value: SQLValue) -> Date? {
        value.real.map { Date(timeIntervalSince1970: $0) }
    }

    /// Rows per multi-row INSERT or UPDATE: one round trip to PostgreSQL (and one statement for SQLite) per
    /// this many recipients, well under either database's limit on bound values.
    static let rowsPerStatement = 500
    static let specColumns =
        "id, app, kind, state, topic, push_type, priority, expiration, collapse_id, created_at, request"

    static func spec(_ row: [SQLValue]) -> (NotificationSpec, String) {
        let spec = NotificationSpec(
            id: row[0].text ?? "", app: row[1].text ?? "",
            kind: NotificationSpec.Kind(rawValue: row[2].text ?? "") ?? .notification, topic: row[4].text ?? "",
            pushType: row[5].text ?? "alert", priority: row[6].integer.map(Int.init), expiration: row[7].integer,
            collapseID: row[8].text, createdAt: date(row[9]) ?? Date(timeIntervalSince1970: 0),
            request: row[10].blob ?? [])
        return (spec, row[3].text ?? "open")
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

    public func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord? {
        try read { connection throws(StoreError) in
            try record(id: id, limit: limit, after: after, connection)
        }
    }

    func record(id: String, limit: Int, after: Int64, _ connection: any SQLConnection) throws(StoreError)
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
