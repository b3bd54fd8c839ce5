import Foundation
import PushbuttonStore
import PushbuttonSupport

/// Records the workers' outcomes, the batches of several workers in one `GatewayStore.record` call (group
/// commit): while one transaction runs, the batches handed in meanwhile wait, and the next call takes them all —
/// one transaction, one commit (SQLite's fsync, PostgreSQL's round trips), one campaign tally update for what
/// would have been several. One call runs at a time, on one of the store threads.
///
/// A batch's rows never share a transaction with another batch holding one of the same recipients (a lease that
/// ran out and was taken again while its outcomes were on their way): the store counts an outcome as recorded by
/// the recipient's id, so such a batch waits for the next call.
///
/// A call that fails (the database restarting, a full disk) is tried again, after a backoff, for as long as a
/// lease lasts (``retryLimit``, the lease's length), and the worker keeps trying to renew the batches' leases
/// meanwhile. A short outage (one that leaves the lease's last renewal standing until the database is back) then
/// sends nothing twice, where a dropped call had always sent its batch again; a longer one can let another process
/// lease and send the batch before the retry lands, which is then refused (recorded once, sent twice). Past the
/// limit, or once the workers stop or drain, a batch is given up and logged; its lease runs out and its recipients
/// are sent again with the same apns-id, as after a crash. (A call whose commit reached the server
/// before the connection was lost is harmless to repeat: the batch is no longer leased, its outcomes are refused.)
final class OutcomeRecorder: Sendable {
    private struct Pending {
        var completed: [CompletedDelivery]
        /// The smallest and largest recipient id, to tell cheaply that two batches share none.
        var ids: ClosedRange<Int64>
        var done: CheckedContinuation<Void, Never>
        /// Since its first failed call, on ``clock``; nil until a call failed.
        var failingFor: (@Sendable () -> Duration)? = nil
    }

    private struct State {
        var queue: [Pending] = []
        var recording = false
        /// Failed calls in a row.
        var failures = 0
        /// Set when the workers stop: a failed call is not tried again.
        var stopping = false
    }

    /// The first retry's wait; each next doubles it, up to ``longestRetryWait``.
    static let firstRetryWait: Duration = .milliseconds(50)
    static let longestRetryWait: Duration = .seconds(2)

    let store: any GatewayStore
    let threads: HandlerThreads
    let metrics: GatewayMetrics
    let webhookEvents: Bool
    let now: @Sendable () -> Date
    /// Requests waiting for outcomes (`wait_seconds`), told of each committed call's notifications.
    let waiters: OutcomeWaiters?
    /// At most this many outcomes in one call (a call of one batch may have more).
    let maximumRows: Int
    /// How long a batch whose call failed is tried again: the lease's length.
    let retryLimit: Duration
    /// What the retries wait on (the wall clock; a `ManualClock` in tests). Not the workers' clock: a retry is no
    /// idle wait, and a test that moves the workers' clock when they wait would count it as one.
    let clock: AnyDurationClock
    /// The process's drain (SIGTERM): once it begins, a failed call is given up at once, so a worker waiting for
    /// its last batch's recording does not outlast the shutdown grace retrying.
    let drainState: DrainState?
    /// A pthread mutex (`Locked`): the thread sanitizer cannot see `Synchronization.Mutex`'s futex and
    /// reported races here (CI's tsan step).
    private let state = Locked(State())

    init(
        store: any GatewayStore, threads: HandlerThreads, metrics: GatewayMetrics, webhookEvents: Bool,
        maximumRows: Int = 16_000, waiters: OutcomeWaiters? = nil, retryLimit: Duration = .seconds(30),
        clock: AnyDurationClock = .continuous, drain: DrainState? = nil, now: @escaping @Sendable () -> Date
    ) {
        drainState = drain
        self.retryLimit = retryLimit
        self.clock = clock
        self.waiters = waiters
        self.store = store
        self.threads = threads
        self.metrics = metrics
        self.webhookEvents = webhookEvents
        self.maximumRows = maximumRows
        self.now = now
    }

    /// How many batches wait for a call (not the one being recorded).
    var waiting: Int { state.withLock { $0.queue.count } }

    /// Records `completed` with whatever other batches are waiting; returns once its transaction committed, or
    /// once its calls failed for ``retryLimit`` (or the workers stopped) and it was given up and logged: its lease
    /// then runs out and the recipients are sent again, with the same apns-id.
    func record(_ completed: [CompletedDelivery]) async {
        guard let first = completed.first?.delivery.id else { return }
        var ids = first...first
        for index in completed.indices {
            let id = completed[index].delivery.id  // by index: no copy of each outcome (and its strings)
            if id < ids.lowerBound {
                ids = id...ids.upperBound
            } else if id > ids.upperBound {
                ids = ids.lowerBound...id
            }
        }
        let range = ids
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let start = state.withLock { state in
                state.queue.append(Pending(completed: completed, ids: range, done: done))
                guard !state.recording else { return false }
                state.recording = true
                return true
            }
            if start { threads.run { self.drain() } }
        }
    }

    /// From now on a failed call is given up at once (the workers are stopping; their leases will run out).
    func stopRetrying() {
        state.withLock { $0.stopping = true }
    }

    /// On a store thread: records what waits, call after call, until nothing does, or until a call failed and
    /// its retry is scheduled (the drain goes on then, `recording` still set).
    private func drain() {
        while let group = nextGroup() {
            if let failure = write(group) {
                if retryLater(group, failure: failure) { return }
            } else {
                let recovered = state.withLock { state in
                    defer { state.failures = 0 }
                    return state.failures
                }
                if recovered > 0 {
                    FileHandle.standardError.write(
                        Data("pushbutton serve: recording outcomes succeeded after \(recovered) failed call(s)\n".utf8))
                }
                for pending in group { pending.done.resume() }
            }
        }
    }

    /// After a failed call: the group's batches still within ``retryLimit`` go back to the front of the queue and
    /// a retry is scheduled (true); the others are given up, logged, and their callers resumed. Logs the first
    /// failure of a run of them and each batch given up, not every retry.
    private func retryLater(_ group: [Pending], failure: String) -> Bool {
        var kept: [Pending] = []
        var given: [Pending] = []
        let (stopping, failures) = state.withLock { state in
            state.failures += 1
            return (state.stopping || drainState?.isDraining == true, state.failures)
        }
        for var pending in group {
            let elapsed = pending.failingFor?() ?? .zero
            if pending.failingFor == nil { pending.failingFor = clock.stopwatch() }
            if stopping || elapsed >= retryLimit { given.append(pending) } else { kept.append(pending) }
        }
        if failures == 1 {
            FileHandle.standardError.write(
                Data(
                    ("pushbutton serve: recording outcomes failed: \(failure); trying again for up to \(retryLimit) "
                        + "while their leases are renewed\n").utf8))
        }
        if !given.isEmpty {
            let count = given.reduce(0) { $0 + $1.completed.count }
            FileHandle.standardError.write(
                Data(
                    ("pushbutton serve: recording \(count) outcome(s) given up (\(failure))\(stopping ? " as the workers stop" : ""): "
                        + "their leases run out and those recipients are sent again, with the same apns-id\n").utf8))
            for pending in given { pending.done.resume() }
        }
        guard !kept.isEmpty else { return false }
        state.withLock { $0.queue.insert(contentsOf: kept, at: 0) }
        let wait = min(Self.longestRetryWait, Self.firstRetryWait * (1 << min(failures - 1, 10)))
        clock.run(after: wait) { [self] in threads.run { self.drain() } }
        return true
    }

    /// The batches of the next call, taken off the queue in order (a batch sharing a recipient with one taken
    /// stays for a later call); `nil` when nothing waits (and the next batch starts a drain of its own).
    private func nextGroup() -> [Pending]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.recording = false
                return nil
            }
            var group: [Pending] = []
            var rows = 0
            var kept: [Pending] = []
            for pending in state.queue {
                let fits = group.isEmpty || rows + pending.completed.count <= maximumRows
                if fits, Self.disjoint(pending, group) {
                    rows += pending.completed.count
                    group.append(pending)
                } else {
                    kept.append(pending)
                }
            }
            state.queue = kept
            return group
        }
    }

    /// Whether `pending` shares no recipient with any batch of `group`.
    private static func disjoint(_ pending: Pending, _ group: [Pending]) -> Bool {
        for other in group where other.ids.overlaps(pending.ids) {
            let ids = Set(other.completed.map(\.delivery.id))
            if pending.completed.contains(where: { ids.contains($0.delivery.id) }) { return false }
        }
        return true
    }

    /// One call for `group`; nil when it committed, else the failure's text.
    private func write(_ group: [Pending]) -> String? {
        let completed = group.count == 1 ? group[0].completed : group.flatMap(\.completed)
        let recorded: RecordedOutcomes
        do {
            recorded = try store.record(completed, webhookEvents: webhookEvents, now: now())
        } catch {
            return "\(error)"
        }
        waiters?.recorded(completed.lazy.map(\.delivery.notificationID))
        metrics.refusedLateOutcomes(recorded.recorded.filter { !$0 }.count)
        for (app, count) in recorded.deactivated { metrics.deactivated(app, count) }
        return nil
    }
}
