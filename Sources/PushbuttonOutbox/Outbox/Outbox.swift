import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport

/// The durable outbox for background taps: nothing a tap produced is lost to a missing network, a slow
/// server, a suspended app or a crash.
///
/// ``deliver(_:)`` (the router's ``BackendDelivery`` hook) commits the request to SQLite, with an fsync,
/// before it returns, so the completion handler is only called once the tap is safe. A delivery worker
/// (``drain(sender:untilEmpty:endpoint:timeLimit:)`` or ``run(sender:pollInterval:)``) sends each entry
/// with its idempotency key until the backend acknowledges it: at least once, and exactly once for a
/// backend that drops repeated keys. Failures are retried with exponential backoff and jitter; after
/// ``OutboxOptions/maximumAttempts`` or ``OutboxOptions/timeToLive`` an entry is dead-lettered with its last
/// error, counted and listed, never dropped silently.
public actor Outbox: BackendDelivery {
    /// The SQLite database's path.
    public nonisolated let path: String
    /// How the outbox retries, expires, caps, prunes and delivers.
    public let options: OutboxOptions
    let database: SQLiteDatabase
    /// The clock every stored time comes from (entries, retries, the tap log).
    let now: @Sendable () -> Date
    /// What the workers' waits sleep on and drains' time limits are measured with (a `ManualClock` in tests).
    let clock: AnyDurationClock
    private let jitter: @Sendable () -> Double
    private var tapInsertsSincePrune = 0
    /// Entries waiting (pending or in flight) as of `dataVersion`: exact while no other connection has
    /// committed, so enqueueing does not count the table for every tap.
    var waitingCache: (count: Int, dataVersion: Int64)?
    /// Taps handed to ``deliver(_:)`` while a commit is in progress: the next commit takes them all.
    var pendingGroup: [(request: BackendRequest, continuation: CheckedContinuation<EnqueueResult, any Error>)] = []
    var groupCommitting = false
    /// The waiting count a group commit computed, until its commit succeeds.
    var pendingWaitingCache: (count: Int, dataVersion: Int64)?

    /// Opens (creating, mode 0600) the database at `path` and applies any missing migrations. The folder it is in
    /// is created when missing: an app's Application Support folder does not exist at its first launch.
    public init(
        path: String, options: OutboxOptions = OutboxOptions(), now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) throws(OutboxError) {
        try self.init(path: path, options: options, now: now, jitter: jitter, clock: .continuous)
    }

    /// As the public initializer, with the clock the workers wait on (a `ManualClock` in tests).
    package init(
        path: String, options: OutboxOptions = OutboxOptions(), now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }, clock: AnyDurationClock
    ) throws(OutboxError) {
        self.clock = clock
        self.path = path
        self.options = options
        self.now = now
        self.jitter = jitter
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .folder(folder.path, error)
        }
        do {
            database = try SQLiteDatabase(path: path)
            try OutboxSchema.migrator.migrate(database, now: now().timeIntervalSince1970)
        } catch {
            throw .storage(error)
        }
    }

    /// The outbox in the app's Application Support folder (created when missing), or in an App Group's container
    /// when `appGroup` is given, so the app and its extensions share it.
    ///
    /// - Parameter name: the database's file name (default `pushbutton-outbox.sqlite`).
    public static func applicationSupport(
        named name: String = "pushbutton-outbox.sqlite", appGroup: String? = nil,
        options: OutboxOptions = OutboxOptions()
    ) throws(OutboxError) -> Outbox {
        try Outbox(path: defaultFolder(appGroup: appGroup).appendingPathComponent(name).path, options: options)
    }

    /// Application Support (or the App Group's container's `Library/Application Support`).
    static func defaultFolder(appGroup: String?) -> URL {
        #if canImport(Darwin)
            if let appGroup,
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            {
                return container.appendingPathComponent("Library/Application Support", isDirectory: true)
            }
        #endif
        return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
    }

    /// Runs `body` on the database, its failure an ``OutboxError``. Whatever it writes may change how many
    /// entries wait, so the cached count is dropped.
    func storage<Result>(_ body: () throws(SQLiteError) -> Result) throws(OutboxError) -> Result {
        waitingCache = nil
        do { return try body() } catch { throw .storage(error) }
    }

    // MARK: Enqueueing

    /// Stores `request` durably. A request whose idempotency key is already stored is not stored twice.
    @discardableResult
    public func enqueue(_ request: BackendRequest) throws(OutboxError) -> EnqueueResult {
        try enqueue(contentsOf: [request])[0].get()
    }

    /// Refuses what would be sent differently from how it was stored: a header smuggled or dropped.
    static func check(_ request: BackendRequest) throws(OutboxError) {
        if let problem = HeaderField.problem(name: "Idempotency-Key", value: request.idempotencyKey) {
            throw .invalidRequest(problem)
        }
        guard HeaderField.isValidName(request.method) else {
            throw .invalidRequest("the method '\(request.method)' is not an HTTP method name")
        }
    }

    // MARK: Reading

    /// Runs SQL on the outbox's connection (for tests and maintenance).
    @discardableResult
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        waitingCache = nil
        return try database.query(sql, values)
    }

    /// The counts by state and the age of the oldest pending entry.
    public func status() throws(OutboxError) -> OutboxStatus {
        let database = database
        let time = now().timeIntervalSince1970
        return try storage { () throws(SQLiteError) -> OutboxStatus in
            var counts: [String: Int] = [:]
            for row in try database.rows("SELECT state, count(*) AS count FROM outbox GROUP BY state") {
                counts[try row.text("state")] = Int(try row.integer("count"))
            }
            let oldest = try database.rows(
                "SELECT min(created_at) AS oldest FROM outbox WHERE state = 'pending'"
            ).first?.optionalReal("oldest")
            return OutboxStatus(
                pending: counts["pending"] ?? 0, inFlight: counts["in_flight"] ?? 0,
                delivered: counts["delivered"] ?? 0,
                dead: counts["dead"] ?? 0, oldestPendingAge: oldest.map { time - $0 })
        }
    }

    /// The entries in `state`, oldest first. An entry that cannot be read as it was stored is an error
    /// (``OutboxError/Code/corruptEntry``), not an entry with defaults.
    public func entries(_ state: OutboxEntry.State, limit: Int = 1000) throws(OutboxError) -> [OutboxEntry] {
        let database = database
        let rows = try storage { () throws(SQLiteError) -> [SQLiteRow] in
            try database.rows(
                "SELECT \(Self.entryColumns) FROM outbox WHERE state = ? ORDER BY id LIMIT ?",
                [.text(state.rawValue), .integer(Int64(limit))])
        }
        var entries: [OutboxEntry] = []
        entries.reserveCapacity(rows.count)
        for row in rows { entries.append(try entry(row)) }
        return entries
    }

    /// The columns ``entry(_:)`` reads.
    static let entryColumns = """
        id, idempotency_key, url, method, body, state, attempts, created_at, next_attempt_at, expires_at, delivered_at,
        last_error, last_cause, last_status, notification_id, action_id
        """

    private static func cause(_ row: SQLiteRow) throws(SQLiteError) -> OutboxFailure? {
        guard let code = try row.optionalText("last_cause") else { return nil }
        return OutboxFailure(
            OutboxFailure.Code(code), status: try row.optionalInteger("last_status").map { Int($0) },
            message: try row.optionalText("last_error") ?? code)
    }

    private static func json(_ bytes: [UInt8]?) throws(SQLiteError) -> JSONValue? {
        guard let bytes else { return nil }
        do { return try JSONParser.parse(bytes) } catch { throw SQLiteRow.corrupt("body", "is not JSON (\(error))") }
    }

    /// The entry in `row`, read by column name; a missing column, a NULL where the schema has none, an unknown
    /// state or a body that is not JSON is corruption: never an entry sent without its body.
    func entry(_ row: SQLiteRow) throws(OutboxError) -> OutboxEntry {
        let id = try? row.integer("id")
        do throws(SQLiteError) {
            let body = try Self.json(try row.optionalBlob("body"))
            let stateName = try row.text("state")
            guard let state = OutboxEntry.State(rawValue: stateName) else {
                throw SQLiteRow.corrupt("state", "holds '\(stateName)', which is not a state")
            }
            return OutboxEntry(
                id: try row.integer("id"), idempotencyKey: try row.text("idempotency_key"), url: try row.text("url"),
                method: try row.text("method"), body: body, state: state, attempts: Int(try row.integer("attempts")),
                createdAt: Date(timeIntervalSince1970: try row.real("created_at")),
                nextAttemptAt: Date(timeIntervalSince1970: try row.real("next_attempt_at")),
                expiresAt: Date(timeIntervalSince1970: try row.real("expires_at")),
                deliveredAt: try row.optionalReal("delivered_at").map(Date.init(timeIntervalSince1970:)),
                lastError: try row.optionalText("last_error"),
                lastCause: try Self.cause(row),
                notificationIdentifier: try row.optionalText("notification_id"),
                actionIdentifier: try row.optionalText("action_id"))
        } catch {
            throw .corruptEntry(id, path: path, problem: error.message)
        }
    }

    /// Removes dead letters (all, or those with the given ids); returns how many.
    @discardableResult
    public func purgeDeadLetters(ids: [Int64]? = nil) throws(OutboxError) -> Int {
        let database = database
        return try storage { () throws(SQLiteError) -> Int in
            if let ids {
                for id in ids {
                    try database.query("DELETE FROM outbox WHERE state = 'dead' AND id = ?", [.integer(id)])
                }
                return ids.count
            }
            try database.query("DELETE FROM outbox WHERE state = 'dead'")
            return database.changes
        }
    }

    // MARK: Delivering

    /// Sends every entry that is due, once; with `untilEmpty`, keeps going (waiting for retries) until nothing
    /// is waiting or `timeLimit` passes. Holds the worker lock meanwhile: a second worker gets `workerBusy`.
    /// `endpoint` sends every entry to that origin instead of its own (the path and query are kept).
    public func drain(
        sender: any OutboxSender, untilEmpty: Bool = false, endpoint: String? = nil, timeLimit: Duration? = nil
    ) async throws(OutboxError) -> DrainReport {
        guard let lock = try WorkerLock(databasePath: path) else { throw .workerBusy(path) }
        defer { withExtendedLifetime(lock) {} }
        let elapsed = clock.stopwatch()
        var report = DrainReport()
        report.recovered = try recoverOrphans()
        while true {
            try expireAndGiveUp(&report)
            let due = try dueEntries(&report)
            try await send(due, sender: sender, endpoint: endpoint, report: &report)
            let status = try status()
            report.remaining = status.pending + status.inFlight
            if !untilEmpty || report.remaining == 0 { break }
            if let timeLimit, elapsed() >= timeLimit {
                report.stoppedBecause = "the time limit passed with \(report.remaining) entries waiting"
                break
            }
            if due.isEmpty { try? await clock.sleep(for: min(try untilNextAttempt(), .milliseconds(250))) }
            if Task.isCancelled {
                report.stoppedBecause = "cancelled"
                break
            }
        }
        try pruneDelivered()
        return report
    }

    /// Delivers until cancelled: drains, then waits `pollInterval` (or less, for a retry that comes due).
    public func run(sender: any OutboxSender, pollInterval: Duration = .seconds(5)) async throws(OutboxError) {
        guard let lock = try WorkerLock(databasePath: path) else { throw .workerBusy(path) }
        defer { withExtendedLifetime(lock) {} }
        var report = DrainReport()
        report.recovered = try recoverOrphans()
        while !Task.isCancelled {
            try expireAndGiveUp(&report)
            try await send(try dueEntries(&report), sender: sender, endpoint: nil, report: &report)
            try? await clock.sleep(for: min(try untilNextAttempt(), pollInterval))
        }
    }

    /// Entries left in flight by a worker that died (this process holds the lock now) go back to pending,
    /// keeping their idempotency keys, so they are re-sent and the backend can drop the repeat.
    private func recoverOrphans() throws(OutboxError) -> Int {
        let database = database
        return try storage { () throws(SQLiteError) -> Int in
            try database.query("UPDATE outbox SET state = 'pending', lease_until = NULL WHERE state = 'in_flight'")
            return database.changes
        }
    }

    private func expireAndGiveUp(_ report: inout DrainReport) throws(OutboxError) {
        let database = database
        let time = now().timeIntervalSince1970
        try storage { () throws(SQLiteError) in
            try database.query(
                """
                UPDATE outbox SET state = 'dead',
                    last_error = 'expired: not delivered within its time to live' || coalesce('; last error: ' || last_error, ''),
                    last_cause = 'expired', last_status = NULL
                WHERE state = 'pending' AND expires_at <= ?
                """, [.real(time)])
            report.deadLettered += database.changes
        }
    }

    /// The entries due now, oldest first. One that cannot be read as stored is dead-lettered with the reason
    /// (counted in `report`), never sent without its body or with defaults.
    private func dueEntries(_ report: inout DrainReport) throws(OutboxError) -> [OutboxEntry] {
        let database = database
        let time = now().timeIntervalSince1970
        let rows = try storage { () throws(SQLiteError) -> [SQLiteRow] in
            try database.rows(
                """
                SELECT \(Self.entryColumns)
                FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 100
                """, [.real(time)])
        }
        var due: [OutboxEntry] = []
        due.reserveCapacity(rows.count)
        for row in rows {
            do {
                due.append(try entry(row))
            } catch  where error.code == .corruptEntry && error.entryID != nil {
                try deadLetterCorrupt(error)
                report.deadLettered += 1
            }
        }
        return due
    }

    private func deadLetterCorrupt(_ error: OutboxError) throws(OutboxError) {
        let database = database
        try storage { () throws(SQLiteError) -> Void in
            try database.query(
                "UPDATE outbox SET state = 'dead', lease_until = NULL, last_error = ?, last_cause = 'corrupt' WHERE id = ?",
                [.text("corrupt: \(error.message)"), .integer(error.entryID ?? -1)])
        }
    }

    private func untilNextAttempt() throws(OutboxError) -> Duration {
        let database = database
        let time = now().timeIntervalSince1970
        let next = try storage { () throws(SQLiteError) -> Double? in
            try database.rows("SELECT min(next_attempt_at) AS next FROM outbox WHERE state = 'pending'").first?
                .optionalReal("next")
        }
        guard let next else { return .seconds(3600) }
        return .milliseconds(max(0, Int64((next - time) * 1000)))
    }

    /// Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries spread out.
    func backoff(afterAttempt attempt: Int) -> Duration {
        Backoff.delay(
            afterAttempt: attempt, base: options.baseBackoff, maximum: options.maximumBackoff, jitter: jitter())
    }

    private func pruneDelivered() throws(OutboxError) {
        let database = database
        let cutoff = now().timeIntervalSince1970 - options.deliveredRetention.seconds
        try storage { () throws(SQLiteError) -> Void in
            try database.query("DELETE FROM outbox WHERE state = 'delivered' AND delivered_at < ?", [.real(cutoff)])
        }
    }

    /// Prunes the tap log every `interval` inserts, rather than on every one.
    func pruneTapsEvery(_ interval: Int, maximumRows: Int, maximumAge: Double) throws(OutboxError) {
        tapInsertsSincePrune += 1
        guard tapInsertsSincePrune >= interval else { return }
        tapInsertsSincePrune = 0
        try pruneTaps(maximumRows: maximumRows, maximumAge: maximumAge)
    }

    /// Keeps at most `maximumRows` tap rows, none older than `maximumAge` seconds.
    func pruneTaps(maximumRows: Int, maximumAge: Double) throws(OutboxError) {
        let database = database
        let cutoff = now().timeIntervalSince1970 - maximumAge
        try storage { () throws(SQLiteError) in
            try database.query("DELETE FROM taps WHERE at < ?", [.real(cutoff)])
            try database.query(
                "DELETE FROM taps WHERE id <= (SELECT id FROM taps ORDER BY id DESC LIMIT 1 OFFSET ?)",
                [.integer(Int64(maximumRows))])
        }
    }

    /// `https://api.example.com/a/b?c` onto `http://127.0.0.1:8080` → `http://127.0.0.1:8080/a/b?c`.
    static func rebase(_ url: String, onto endpoint: String) -> String {
        guard let original = URLComponents(string: url), var target = URLComponents(string: endpoint) else {
            return endpoint
        }
        target.percentEncodedPath =
            (target.percentEncodedPath.hasSuffix("/")
                ? String(target.percentEncodedPath.dropLast()) : target.percentEncodedPath)
            + original.percentEncodedPath
        target.percentEncodedQuery = original.percentEncodedQuery
        return target.string ?? endpoint
    }
}
