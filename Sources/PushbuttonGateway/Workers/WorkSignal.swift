import PushbuttonSupport

/// Wakes idle workers the moment work is committed, instead of letting them sleep out a poll interval: an
/// intake raises it once its transaction has committed (in this process; on PostgreSQL, another process's
/// commit arrives through the store's `LISTEN`), and an idle worker waits on it with the poll interval as
/// a fallback timeout, for a signal that was lost (a dropped `LISTEN` connection, a scheduled item coming due).
///
/// No raise is lost between a worker's empty lease and its wait: the worker reads ``generation`` before it
/// leases and waits for a generation after that one, so a commit that raced the lease ends the wait at once.
final class WorkSignal: Sendable {
    /// Why a wait ended.
    enum Wake: Sendable, Equatable {
        /// Work was committed (or a wait began after a raise it had not seen).
        case signalled
        /// The fallback poll: the timeout passed without a raise.
        case timedOut
        /// The waiting task was cancelled (the workers are stopping).
        case cancelled
        /// A notification leased at its intake was handed to the workers (``handedOver()``).
        case handedOver
    }

    private struct Waiter {
        var continuation: CheckedContinuation<Wake, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var generation: UInt64 = 0
        var handOffs: UInt64 = 0
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var wakes: [Wake: Int] = [:]
    }

    private let state = Locked(State())
    private let clock: AnyDurationClock

    /// `clock` times the fallback (tests drive a manual one).
    init(clock: AnyDurationClock = AnyDurationClock(ContinuousClock())) {
        self.clock = clock
    }

    /// How many raises there have been; read before leasing and handed to ``wait(after:timeout:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// How many hand-offs there have been (``handedOver()``); read with ``generation`` before a worker looks
    /// for work.
    var handOffs: UInt64 { state.withLock { $0.handOffs } }

    /// How many waits ended each way, so far (for tests and metrics: a wake by ``Wake/timedOut`` that found
    /// work means a signal was lost).
    func wakes(_ kind: Wake) -> Int { state.withLock { $0.wakes[kind, default: 0] } }

    /// Work was committed: one waiting worker wakes (the one waiting longest), to lease what is due; a worker
    /// that finds a full batch raises again for the next (``DeliveryWorkers``). One wake per commit, not one
    /// per idle worker: the others would only lease nothing, each in a write transaction of its own.
    func raise() {
        wake(all: false)
    }

    /// Every waiting worker wakes (the drain begins: each must see it).
    func raiseForAll() {
        wake(all: true)
    }

    /// A notification was handed to the workers already leased (``LeaseHandOff``): one waiting worker wakes to
    /// take it. The generation stays: nothing was queued that a lease could find, so a worker that found the
    /// queue empty before need not lease again.
    func handedOver() {
        wake(all: false, handOff: true)
    }

    private func wake(all: Bool, handOff: Bool = false) {
        let reason: Wake = handOff ? .handedOver : .signalled
        let woken = state.withLock { state -> [Waiter] in
            if handOff { state.handOffs &+= 1 } else { state.generation &+= 1 }
            let ids = all ? Array(state.waiters.keys) : state.waiters.keys.min().map { [$0] } ?? []
            let woken = ids.compactMap { state.waiters.removeValue(forKey: $0) }
            state.wakes[reason, default: 0] += woken.count
            return woken
        }
        for waiter in woken {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: reason)
        }
    }

    /// Waits until a raise after generation `seen` (at once if there was one already), a hand-off after
    /// `handOffs` (when given), `timeout` passes, or the task is cancelled.
    func wait(after seen: UInt64, handOffs: UInt64? = nil, timeout: Duration) async -> Wake {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let registered = state.withLock { state -> Bool in
                    guard state.generation == seen, handOffs.map({ $0 == state.handOffs }) ?? true, !Task.isCancelled
                    else { return false }
                    state.waiters[id] = Waiter(continuation: continuation)
                    return true
                }
                guard registered else {
                    let wake: Wake = Task.isCancelled ? .cancelled : .signalled
                    state.withLock { $0.wakes[wake, default: 0] += 1 }
                    continuation.resume(returning: wake)
                    return
                }
                let clock = self.clock
                let timer = Task { [weak self] in
                    guard (try? await clock.sleep(for: timeout)) != nil else { return }
                    self?.end(id, .timedOut)
                }
                // The timer is kept to be cancelled by whoever ends the wait first; if that already happened
                // (a raise between registering and here), it is cancelled now.
                let stillWaiting = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return false }
                    state.waiters[id]?.timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            end(id, .cancelled)
        }
    }

    /// Ends waiter `id`'s wait with `wake`, unless it has ended already.
    private func end(_ id: Int, _ wake: Wake) {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            state.wakes[wake, default: 0] += 1
            return waiter
        }
        guard let waiter else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: wake)
    }
}
