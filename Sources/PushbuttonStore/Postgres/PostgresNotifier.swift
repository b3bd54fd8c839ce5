internal import CPostgreSQL
import Foundation
import PushbuttonSupport

/// Sends this store's `NOTIFY`s after the transactions they tell of have committed, on a connection and thread
/// of its own, instead of inside those transactions.
///
/// Why: PostgreSQL serialises the commits of transactions that notify (each takes one database-wide lock
/// before its commit record and keeps it until the record is flushed), so a `NOTIFY` in every intake made every
/// intake of every process commit one at a time, an fsync each (at 1,000 notifications a second on two
/// processes the intake fell seconds behind). Here a `NOTIFY` is a transaction of its own that commits without
/// waiting for the disk (nothing in it needs to survive a crash: a lost one is what the workers' fallback poll
/// is for), so it holds that lock for microseconds, and the data transactions' commits share fsyncs again.
///
/// Notices asked for while one is being sent are deduplicated and sent together, in one statement and
/// transaction. The thread starts at the first notice and ends, closing its connection, after ``idleTime``
/// without one (a later notice starts it again). A notice whose send fails is sent once more on a new
/// connection; if that fails too it is dropped (the listeners' fallbacks recover it) and the failure counted.
///
/// `@unchecked Sendable`: `state` is reached only under `condition`'s lock, and the connection only on the
/// notifier's thread.
final class PostgresNotifier: @unchecked Sendable {
    /// What the notifier has done, for tests and ``waitUntil(_:)``.
    struct Status: Sendable {
        /// Notices asked for (``notify(_:payload:)`` calls).
        var asked = 0
        /// Statements sent, each with one or more notices, each its own transaction.
        var transactions = 0
        /// Notices sent (after deduplication).
        var sent = 0
        /// Notices dropped after a send failed twice.
        var dropped = 0
        /// Connections opened.
        var connections = 0
    }

    private struct State {
        var status = Status()
        /// Notices waiting to be sent, in the order asked, each once.
        var pending: [Notice] = []
        var pendingSet: Set<Notice> = []
        var running = false
        var stopped = false
        var waiters: [(until: @Sendable (Status) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private struct Notice: Hashable, Sendable {
        var channel: String
        var payload: String
    }

    private let url: String
    /// How long the thread waits for a notice before it ends and closes its connection.
    let idleTime: TimeInterval
    private let condition = NSCondition()
    private var state = State()

    /// Notifies through the database at `url`; the connection opens at the first notice.
    init(url: String, idleTime: TimeInterval = 60) {
        self.url = url
        self.idleTime = idleTime
    }

    deinit { stop() }

    /// Sends `NOTIFY channel, payload` soon, in a transaction of its own (after whatever the caller committed).
    /// Never blocks on the database.
    func notify(_ channel: String, payload: String) {
        let notice = Notice(channel: channel, payload: payload)
        condition.lock()
        guard !state.stopped else {
            condition.unlock()
            return
        }
        let ready = update { $0.asked += 1 }
        if state.pendingSet.insert(notice).inserted { state.pending.append(notice) }
        let start = !state.running
        if start { state.running = true }
        condition.signal()
        condition.unlock()
        for continuation in ready { continuation.resume() }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "pb-notify"
            thread.start()
        }
    }

    /// What the notifier has done so far.
    var status: Status {
        condition.lock()
        defer { condition.unlock() }
        return state.status
    }

    /// Returns once `condition` holds of the notifier's ``Status`` (tests: "the notice was sent").
    func waitUntil(_ until: @escaping @Sendable (Status) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            let now = until(state.status)
            if !now { state.waiters.append((until, continuation)) }
            condition.unlock()
            if now { continuation.resume() }
        }
    }

    /// Drops what is pending and ends the thread after its current send; later notices are ignored.
    func stop() {
        condition.lock()
        state.stopped = true
        state.pending.removeAll()
        state.pendingSet.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Under `condition`'s lock: changes the status and takes the waiters it satisfies now.
    private func update(_ change: (inout Status) -> Void) -> [CheckedContinuation<Void, Never>] {
        change(&state.status)
        let status = state.status
        var ready: [CheckedContinuation<Void, Never>] = []
        state.waiters.removeAll { waiter in
            guard waiter.until(status) else { return false }
            ready.append(waiter.continuation)
            return true
        }
        return ready
    }

    private func run() {
        var connection: OpaquePointer?
        defer { PQfinish(connection) }
        while let batch = next() {
            var sent = send(batch, on: &connection)
            if !sent {
                // Once more on a new connection (the old one may have been terminated while idle).
                PQfinish(connection)
                connection = nil
                sent = send(batch, on: &connection)
            }
            condition.lock()
            let ready = update { status in
                if sent {
                    status.transactions += 1
                    status.sent += batch.count
                } else {
                    status.dropped += batch.count
                }
            }
            condition.unlock()
            for continuation in ready { continuation.resume() }
            if !sent {
                PQfinish(connection)
                connection = nil
            }
        }
    }

    /// The notices to send next, or nil when the thread should end (stopped, or idle for ``idleTime``; then
    /// `running` is cleared under the lock, so a notice asked for after it starts a new thread).
    private func next() -> [Notice]? {
        condition.lock()
        defer { condition.unlock() }
        while state.pending.isEmpty && !state.stopped {
            if !condition.wait(until: Date(timeIntervalSinceNow: idleTime)) && state.pending.isEmpty { break }
        }
        guard !state.stopped, !state.pending.isEmpty else {
            state.running = false
            return nil
        }
        defer {
            state.pending.removeAll(keepingCapacity: true)
            state.pendingSet.removeAll(keepingCapacity: true)
        }
        return state.pending
    }

    /// Sends `batch` in one statement (one transaction), connecting first if need be; whether it succeeded.
    private func send(_ batch: [Notice], on connection: inout OpaquePointer?) -> Bool {
        if connection == nil {
            connection = connect()
            guard connection != nil else { return false }
            condition.lock()
            let ready = update { $0.connections += 1 }
            condition.unlock()
            for continuation in ready { continuation.resume() }
        }
        guard let handle = connection else { return false }
        var calls: [String] = []
        for notice in batch {
            guard let channel = Self.literal(notice.channel, handle), let payload = Self.literal(notice.payload, handle)
            else { return false }
            calls.append("pg_notify(\(channel), \(payload))")
        }
        let result = PQexec(handle, "SELECT " + calls.joined(separator: ", "))
        defer { PQclear(result) }
        return PQresultStatus(result) == PGRES_TUPLES_OK
    }

    /// `text` as an SQL string literal, quoted by libpq for this connection.
    private static func literal(_ text: String, _ handle: OpaquePointer) -> String? {
        let utf8 = Array(text.utf8)
        guard let quoted = PQescapeLiteral(handle, text, utf8.count) else { return nil }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// A connection whose transactions commit without waiting for the disk, or nil.
    private func connect() -> OpaquePointer? {
        guard let handle = PostgresConnectDefaults.connect(url) else { return nil }
        guard PQstatus(handle) == CONNECTION_OK else {
            PQfinish(handle)
            return nil
        }
        let result = PQexec(handle, "SET synchronous_commit = off")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            PQfinish(handle)
            return nil
        }
        return handle
    }
}
