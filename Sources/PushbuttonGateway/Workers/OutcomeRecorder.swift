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
final class OutcomeRecorder: Sendable {
    private struct Pending {
        var completed: [CompletedDelivery]
        /// The smallest and largest recipient id, to tell cheaply that two batches share none.
        var ids: ClosedRange<Int64>
        var done: CheckedContinuation<Void, Never>
    }

    private struct State {
        var queue: [Pending] = []
        var recording = false
    }

    let store: any GatewayStore
    let threads: HandlerThreads
    let metrics: GatewayMetrics
    let webhookEvents: Bool
    let now: @Sendable () -> Date
    /// Requests waiting for outcomes (`wait_seconds`), told of each committed call's notifications.
    let waiters: OutcomeWaiters?
    /// At most this many outcomes in one call (a call of one batch may have more).
    let maximumRows: Int
    /// A pthread mutex (`Locked`): the thread sanitizer cannot see `Synchronization.Mutex`'s futex and
    /// reported races here (CI's tsan step).
    private let state = Locked(State())

    init(
        store: any GatewayStore, threads: HandlerThreads, metrics: GatewayMetrics, webhookEvents: Bool,
        maximumRows: Int = 16_000, waiters: OutcomeWaiters? = nil, now: @escaping @Sendable () -> Date
    ) {
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

    /// Records `completed` with whatever other batches are waiting; returns once its transaction ended
    /// (committed, or failed and logged: the leases then run out and the recipients are sent again, with the
    /// same apns-id).
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

    /// On a store thread: records what waits, call after call, until nothing does.
    private func drain() {
        while let group = nextGroup() {
            write(group)
            for pending in group { pending.done.resume() }
        }
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

    private func write(_ group: [Pending]) {
        let completed = group.count == 1 ? group[0].completed : group.flatMap(\.completed)
        let recorded: RecordedOutcomes
        do {
            recorded = try store.record(completed, webhookEvents: webhookEvents, now: now())
        } catch {
            FileHandle.standardError.write(Data("pushbutton serve: recording outcomes failed: \(error)\n".utf8))
            return
        }
        waiters?.recorded(completed.lazy.map(\.delivery.notificationID))
        metrics.refusedLateOutcomes(recorded.recorded.filter { !$0 }.count)
        for (app, count) in recorded.deactivated { metrics.deactivated(app, count) }
    }
}
