import PushbuttonSupport

/// What a test awaits instead of sleeping: the code under test (or a double in the test) calls ``notify()``
/// whenever the state the test watches may have changed, and ``wait(until:)`` checks its condition again then,
/// never on a timer. A test that never sees its condition is ended by its suite's `.timeLimit`.
package final class ChangeSignal: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Wakes every waiter, to check its condition again.
    package func notify() {
        let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation += 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once `condition` holds, checking it now and after every ``notify()``; returns early when the
    /// task is cancelled (the caller's assertions then fail with what was seen).
    package func wait(until condition: () -> Bool) async {
        while !Task.isCancelled {
            let seen = state.withLock { $0.generation }
            if condition() { return }
            await change(after: seen)
        }
    }

    /// Suspends until a ``notify()`` after `generation` (at once if there was one) or cancellation.
    private func change(after generation: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}

/// Waits, yielding, until `condition` holds: only for state that threads of their own (not Swift's pool) change
/// soon and that offers no signal (a server's counters, a producer thread filling a channel); no timer is involved.
/// A test that never sees it is ended by its suite's `.timeLimit`.
package func yieldUntil(_ condition: () -> Bool) async {
    while !condition() && !Task.isCancelled { await Task.yield() }
}
