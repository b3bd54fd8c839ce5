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
    public nonisolated let path: String
    public let options: OutboxOptions
    let database: SQLiteDatabase
    private let now: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private var tapInsertsSincePrune = 0

    /// Opens (creating, mode 0600) the database at `path` and applies any missing migrations.
    public init(
        path: String, options: OutboxOptions = OutboxOptions(), now: @escaping @Sendable () -> Date = { Date() },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) throws(OutboxError) {
        self.path = path
        self.options = options
        self.now = now
        self.jitter = jitter
        do {
            database = try SQLiteDatabase(path: path)
            try OutboxSchema.migrator.migrate(database, now: now().timeIntervalSince1970)
        } catch {
            throw .storage(error)
        }
    }

    private func storage<Result>(_ body: () throws(SQLiteError) -> Result) throws(OutboxError) -> Result {
        do { return try body() } catch { throw .storage(error) }
    }

    // MARK: Enqueueing

    /// Stores a backend request from the router (``BackendDelivery``); returns once it is durable.
    public func deliver(_ request: BackendRequest) async throws {
        try enqueue(request)
    }

    /// Stores `request` durably. A request whose idempotency key is already stored is not stored twice.
    @discardableResult
    public func enqueue(_ request: BackendRequest) throws(OutboxError) -> EnqueueResult {
        try Self.check(request)
        let time = now().timeIntervalSince1970
        let body = request.body.map { SQLiteValue.blob(JSONWriter.compact($0)) } ?? .null
        let capacity = options.capacity
        let whenFull = options.whenFull
        let database = database
        let ttl = options.timeToLive.seconds
        // `nil` from the transaction means full under `.rejectNew`: nothing was written.
        let result = try storage { () throws(SQLiteError) -> EnqueueResult? in
            try database.transaction { () throws(SQLiteError) -> EnqueueResult? in
                let exists = try database.query(
                    "SELECT 1 FROM outbox WHERE idempotency_key = ?", [.text(request.idempotencyKey)])
                if !exists.isEmpty { return .duplicate }
                var evicted: String?
                let waiting = try database.query("SELECT count(*) FROM outbox WHERE state IN ('pending', 'in_flight')")
                if Int(waiting.first?.first?.integer ?? 0) >= capacity {
                    guard whenFull == .deadLetterOldest else { return nil }
                    let oldest = try database.query(
                        "SELECT id, idempotency_key FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1")
                    if let row = oldest.first, let id = row[0].integer {
                        try database.query(
                            "UPDATE outbox SET state = 'dead', last_error = 'evicted: the outbox was full' WHERE id = ?",
                            [.integer(id)])
                        evicted = row[1].text
                    }
                }
                try database.query(
                    """
                    INSERT INTO outbox (idempotency_key, url, method, body, state, created_at, next_attempt_at, expires_at,
                                        notification_id, action_id)
                    VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(request.idempotencyKey), .text(request.url), .text(request.method), body, .real(time),
                        .real(time),
                        .real(time + ttl), .text(request.notificationIdentifier),
                        .text(request.actionIdentifier),
                    ])
                let id = database.lastInsertRowID
                return evicted.map { .addedEvicting(id, evictedKey: $0) } ?? .added(id)
            }
        }
        guard let result else { throw .full(capacity: capacity) }
        return result
    }

    /// Refuses what would be sent differently from how it was stored: a header smuggled or dropped.
    private static func check(_ request: BackendRequest) throws(OutboxError) {
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
        try database.query(sql, values)
    }

    /// The counts by state and the age of the oldest pending entry.
    public func status() throws(OutboxError) -> OutboxStatus {
        let database = database
        let time = now().timeIntervalSince1970
        return try storage { () throws(SQLiteError) -> OutboxStatus in
            var counts: [String: Int] = [:]
            for row in try database.query("SELECT state, count(*) FROM outbox GROUP BY state") {
                if let state = row[0].text { counts[state] = Int(row[1].integer ?? 0) }
            }
            let oldest = try database.query("SELECT min(created_at) FROM outbox WHERE state = 'pending'").first?.first?
                .real
            return OutboxStatus(
                pending: counts["pending"] ?? 0, inFlight: counts["in_flight"] ?? 0,
                delivered: counts["delivered"] ?? 0,
                dead: counts["dead"] ?? 0, oldestPendingAge: oldest.map { time - $0 })
        }
    }

    /// The entries in `state`, oldest first.
    public func entries(_ state: OutboxEntry.State, limit: Int = 1000) throws(OutboxError) -> [OutboxEntry] {
        let database = database
        return try storage { () throws(SQLiteError) -> [OutboxEntry] in
            try database.query(
                """
                SELECT id, idempotency_key, url, method, body, state, attempts, created_at, next_attempt_at, expires_at,
                       delivered_at, last_error, notification_id, action_id
                FROM outbox WHERE state = ? ORDER BY id LIMIT ?
                """, [.text(state.rawValue), .integer(Int64(limit))]
            ).map(Self.entry)
        }
    }

    private static func entry(_ row: [SQLiteValue]) -> OutboxEntry {
        OutboxEntry(
            id: row[0].integer ?? 0, idempotencyKey: row[1].text ?? "", url: row[2].text ?? "",
            method: row[3].text ?? "POST",
            body: row[4].blob.flatMap { try? JSONParser.parse($0) },
            state: OutboxEntry.State(rawValue: row[5].text ?? "") ?? .pending,
            attempts: Int(row[6].integer ?? 0), createdAt: Date(timeIntervalSince1970: row[7].real ?? 0),
            nextAttemptAt: Date(timeIntervalSince1970: row[8].real ?? 0),
            expiresAt: Date(timeIntervalSince1970: row[9].real ?? 0),
            deliveredAt: row[10].real.map(Date.init(timeIntervalSince1970:)), lastError: row[11].text,
            notificationIdentifier: row[12].text, actionIdentifier: row[13].text)
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
        let started = ContinuousClock.now
        var report = DrainReport()
        report.recovered = try recoverOrphans()
        while true {
            try expireAndGiveUp(&report)
            let due = try dueEntries()
            for entry in due {
                try await attempt(entry, sender: sender, endpoint: endpoint, report: &report)
            }
            let status = try status()
            report.remaining = status.pending + status.inFlight
            if !untilEmpty || report.remaining == 0 { break }
            if let timeLimit, ContinuousClock.now - started >= timeLimit {
                report.stoppedBecause = "the time limit passed with \(report.remaining) entries waiting"
                break
            }
            if due.isEmpty { try? await Task.sleep(for: min(try untilNextAttempt(), .milliseconds(250))) }
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
            for entry in try dueEntries() { try await attempt(entry, sender: sender, endpoint: nil, report: &report) }
            try? await Task.sleep(for: min(try untilNextAttempt(), pollInterval))
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
                    last_error = 'expired: not delivered within its time to live' || coalesce('; last error: ' || last_error, '')
                WHERE state = 'pending' AND expires_at <= ?
                """, [.real(time)])
            report.deadLettered += database.changes
        }
    }

    private func dueEntries() throws(OutboxError) -> [OutboxEntry] {
        let database = database
        let time = now().timeIntervalSince1970
        return try storage { () throws(SQLiteError) -> [OutboxEntry] in
            try database.query(
                """
                SELECT id, idempotency_key, url, method, body, state, attempts, created_at, next_attempt_at, expires_at,
                       delivered_at, last_error, notification_id, action_id
                FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 100
                """, [.real(time)]
            ).map(Self.entry)
        }
    }

    private func untilNextAttempt() throws(OutboxError) -> Duration {
        let database = database
        let time = now().timeIntervalSince1970
        let next = try storage { () throws(SQLiteError) -> Double? in
            try database.query("SELECT min(next_attempt_at) FROM outbox WHERE state = 'pending'").first?.first?.real
        }
        guard let next else { return .seconds(3600) }
        return .milliseconds(max(0, Int64((next - time) * 1000)))
    }

    private func attempt(
        _ entry: OutboxEntry, sender: any OutboxSender, endpoint: String?, report: inout DrainReport
    ) async throws(OutboxError) {
        let database = database
        let time = now().timeIntervalSince1970
        // Claimed (and the attempt counted) in its own commit before sending, so a crash mid-send is visible.
        let claimed = try storage { () throws(SQLiteError) -> Bool in
            try database.query(
                "UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, lease_until = ? WHERE id = ? AND state = 'pending'",
                [.real(time + options.requestTimeout.seconds), .integer(entry.id)])
            return database.changes == 1
        }
        guard claimed else { return }
        report.attempted += 1
        var headers = ["Idempotency-Key": entry.idempotencyKey]
        if entry.body != nil { headers["Content-Type"] = "application/json" }
        let request = OutgoingRequest(
            url: endpoint.map { Self.rebase(entry.url, onto: $0) } ?? entry.url, method: entry.method, headers: headers,
            body: entry.body.map { Data(JSONWriter.compact($0)) })
        let failure: (message: String, final: Bool)?
        do {
            let status = try await sender.send(request)
            switch status {
            case 200..<300: failure = nil
            case 300..<400:
                // Never followed and never a delivery: a 302 would turn the POST into a GET whose 200 is
                // not the backend's acknowledgement, a 307 would re-post elsewhere. Retried, then dead-lettered.
                failure = ("HTTP \(status): a redirect, which the outbox does not follow", false)
            case 408, 425, 429, 500..<600: failure = ("HTTP \(status)", false)
            default: failure = ("HTTP \(status): the server refused the request", true)
            }
        } catch {
            failure = ("\(error)", false)
        }
        try record(entry, failure: failure, report: &report)
    }

    private func record(_ entry: OutboxEntry, failure: (message: String, final: Bool)?, report: inout DrainReport)
        throws(OutboxError)
    {
        let database = database
        let time = now().timeIntervalSince1970
        let attempts = entry.attempts + 1
        try storage { () throws(SQLiteError) in
            guard let failure else {
                try database.query(
                    "UPDATE outbox SET state = 'delivered', delivered_at = ?, lease_until = NULL, last_error = NULL WHERE id = ?",
                    [.real(time), .integer(entry.id)])
                report.delivered += 1
                return
            }
            if failure.final || attempts >= options.maximumAttempts {
                let reason =
                    failure.final
                    ? failure.message : "gave up after \(attempts) attempts; last error: \(failure.message)"
                try database.query(
                    "UPDATE outbox SET state = 'dead', lease_until = NULL, last_error = ? WHERE id = ?",
                    [.text(reason), .integer(entry.id)])
                report.deadLettered += 1
                return
            }
            try database.query(
                "UPDATE outbox SET state = 'pending', lease_until = NULL, last_error = ?, next_attempt_at = ? WHERE id = ?",
                [.text(failure.message), .real(time + backoff(afterAttempt: attempts).seconds), .integer(entry.id)])
            report.retried += 1
        }
    }

    /// Exponential backoff with "equal jitter": half the delay is fixed, half random, so retries spread out.
    func backoff(afterAttempt attempt: Int) -> Duration {
        Backoff.delay(
            afterAttempt: attempt, base: options.baseBackoff, maximum: options.maximumBackoff, jitter: jitter())
    }

    private func pruneDelivered() throws(OutboxError) {
        let database = database
        let cutoff = now().timeIntervalSince1970 - options.deliveredRetention.seconds
        try storage { () throws(SQLiteError) in
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
