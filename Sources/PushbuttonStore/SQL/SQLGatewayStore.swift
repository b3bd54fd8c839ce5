import Foundation
import PushbuttonSupport

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
    let intake = GroupCommit<AppendedPage, PageAppendResult?>(maximumWeight: 30_000)
    /// Single notifications, committed in groups as SQLite's pages are (on PostgreSQL too: one transaction, one
    /// fsync and one `NOTIFY` for the notifications that arrive while the one before commits).
    let notificationIntake: GroupCommit<EnqueuedNotification, IntakeAnswer>
    /// Groups of single notifications committing at once on PostgreSQL: with one, a group's round trips (five
    /// a notification) capped each process's intake under load (~200/s measured at load average 20).
    static let postgresIntakeLeaders = 4
    /// This process's idle workers, to whom a single notification's intake hands its recipients leased
    /// (``handOffLeases(to:)``); nil: every intake queues and wakes the workers.
    let handOff = Locked<LeaseHandOff?>(nil)
    /// Who is woken when an intake commits (``observeCommittedWork(_:)``).
    let committedWork: CommittedWork
    /// PostgreSQL: sends the `NOTIFY`s that tell other processes of commits, after those commits; nil on SQLite.
    let notifier: PostgresNotifier?
    /// Who is told of outcomes other processes recorded (``observeRecordedOutcomes(_:)``).
    let outcomeNotices: OutcomeNotices
    /// The event stream's types this process raises (``EventStreamStore/streamEvents(_:)``).
    let streamKinds = Locked<Set<StreamEvent.Kind>>([])

    init(
        pool: ConnectionPool, readers: ConnectionPool? = nil, dialect: SQLDialect, location: String,
        committedWork: CommittedWork = CommittedWork(), outcomeNotices: OutcomeNotices? = nil,
        notifier: PostgresNotifier? = nil
    ) {
        self.notifier = notifier
        self.pool = pool
        self.readers = readers ?? pool
        self.dialect = dialect
        self.location = location
        self.committedWork = committedWork
        notificationIntake = GroupCommit(
            maximumWeight: 30_000, maximumLeaders: dialect.hasOneWriter ? 1 : Self.postgresIntakeLeaders)
        self.outcomeNotices = outcomeNotices ?? OutcomeNotices(origin: committedWork.origin)
    }

    deinit { notifier?.stop() }

    /// Opens (creating, mode 0600) the SQLite database at `path` and applies missing migrations.
    public static func sqlite(path: String, now: Date = Date()) throws(StoreError) -> SQLGatewayStore {
        // The writer's page cache holds what leases and outcomes work on (a few batches of rows, the ends of
        // the indexes): 4 MiB measured as fast as 16 MiB, which filled during a campaign and made up ~12 MiB
        // of the server's peak.
        let connection = try SQLiteConnection(path: path, cacheKiB: 4096)
        try StoreMigrations.migrateSQLite(connection.database, now: now)
        try numberAppVersions(connection)
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

    /// A notification's columns as ``spec(_:)`` reads them (its intake and its record both read it).
    static let specColumns =
        "id, app, kind, state, topic, push_type, priority, expiration, collapse_id, created_at, request, send_at, "
        + "throttle_per_minute"

    /// The notification in a row of ``specColumns``, and its state.
    static func spec(_ row: [SQLValue]) -> (NotificationSpec, String) {
        let spec = NotificationSpec(
            id: row[0].text ?? "", app: row[1].text ?? "",
            kind: NotificationSpec.Kind(rawValue: row[2].text ?? "") ?? .notification, topic: row[4].text ?? "",
            pushType: row[5].text ?? "alert", priority: row[6].integer.map(Int.init), expiration: row[7].integer,
            collapseID: row[8].text, createdAt: date(row[9]) ?? Date(timeIntervalSince1970: 0),
            request: row[10].blob ?? [], sendAt: row.count > 11 ? date(row[11]) : nil,
            throttlePerMinute: row.count > 12 ? row[12].integer.map(Int.init) : nil)
        return (spec, row[3].text ?? "open")
    }
}
