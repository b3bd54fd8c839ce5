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
