internal import CPostgreSQL
import Foundation
import PushbuttonSupport

/// A `LISTEN` connection of its own, on a thread of its own: calls `heard` with their payloads when other
/// processes notify its channel (``PostgresNotifier``, after their commits) — an intake committed work, so an
/// idle worker here wakes; outcomes recorded for a request waiting here.
///
/// The thread sleeps in `poll` on the connection's socket (no timer: idle costs nothing). When the connection
/// drops, the listener reconnects with backoff, and once it listens again it calls `heard` with no payloads:
/// a notice in between was not heard, and the workers' fallback poll (a waiting request's deadline) would
/// otherwise be the only one to find what it told.
final class PostgresListener: Sendable {
    /// What the listener has seen, for ``waitUntil(_:)``.
    struct Status: Sendable {
        /// Times `LISTEN` succeeded (the first connection and each reconnection).
        var connections = 0
        /// Times the connection dropped.
        var drops = 0
        /// Other processes' notifications heard.
        var notices = 0
    }

    private struct State {
        var status = Status()
        var waiters: [(until: @Sendable (Status) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        var stopped = false
    }

    private let url: String
    private let channel: String
    /// The payload this process's own `NOTIFY`s carry, alone or as their first word: they are not heard back
    /// (the intake or the recorder signalled in process already).
    private let origin: String
    private let retry: Duration
    private let heard: @Sendable (_ payloads: [String]) -> Void
    private let state = Locked(State())
    /// A pipe whose write end stops the thread's `poll`.
    private let stopPipe: (read: Int32, write: Int32)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts listening on `channel` at `url`; `retry` is the first reconnection delay (it doubles, up to
    /// 30 s, with jitter).
    init(
        url: String, channel: String, origin: String, retry: Duration,
        heard: @escaping @Sendable (_ payloads: [String]) -> Void
    ) {
        self.url = url
        self.channel = channel
        self.origin = origin
        self.retry = retry
        self.heard = heard
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        for fd in fds where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        stopPipe = (fds[0], fds[1])
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "pb-listen"
        thread.start()
    }

    /// What the listener has seen so far.
    var status: Status { state.withLock { $0.status } }

    /// Returns once `condition` holds of the listener's ``Status`` (tests: "it listens", "its connection
    /// dropped").
    func waitUntil(_ condition: @escaping @Sendable (Status) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if condition(state.status) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Stops the thread and closes the connection; returns once the thread has ended.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        finished.wait()
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func update(_ change: (inout Status) -> Void) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
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
        for continuation in ready { continuation.resume() }
    }

    private func run() {
        var failures = 0
        while !stopped {
            if let connection = connect() {
                failures = 0
                update { $0.connections += 1 }
                heard([])  // whatever was told while this process was not listening
                listen(on: connection)
                PQfinish(connection)
                if stopped { return }
                update { $0.drops += 1 }
            }
            failures += 1
            let delay = Backoff.delay(
                afterAttempt: failures, base: retry, maximum: max(retry, .seconds(30)), jitter: Double.random(in: 0...1)
            )
            if awaitStop(milliseconds: Int32(clamping: Int64(delay.seconds * 1000))) { return }
        }
    }

    /// A connection that listens on the channel, or nil (after a message on stderr, once per outage).
    private func connect() -> OpaquePointer? {
        guard let connection = PostgresConnectDefaults.connect(url) else { return nil }
        guard PQstatus(connection) == CONNECTION_OK else {
            PQfinish(connection)
            return nil
        }
        let result = PQexec(connection, "LISTEN \(channel)")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            PQfinish(connection)
            return nil
        }
        return connection
    }

    /// Hears notifications until the connection drops or the listener stops.
    private func listen(on connection: OpaquePointer) {
        let socket = PQsocket(connection)
        guard socket >= 0 else { return }
        while true {
            var fds = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard PQconsumeInput(connection) == 1 else { return }  // the connection is gone
            var foreign: [String] = []
            while let notice = PQnotifies(connection) {
                if let extra = notice.pointee.extra {
                    let payload = String(cString: extra)
                    if payload != origin, !payload.hasPrefix(origin + " ") { foreign.append(payload) }
                }
                PQfreemem(notice)
            }
            if !foreign.isEmpty {
                update { $0.notices += foreign.count }
                heard(foreign)
            }
            if PQstatus(connection) != CONNECTION_OK { return }
        }
    }

    /// Waits up to `milliseconds` for ``stop()``; whether it came.
    private func awaitStop(milliseconds: Int32) -> Bool {
        var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 1, max(0, milliseconds))
        return fds[0].revents != 0 || stopped
    }
}
