import PushbuttonSupport

/// Lets async code wait until a transport's or server's own thread has ended; any number of callers may
/// wait, before or after it ends. Waiting parks no thread: a blocked Dispatch worker would starve the
/// timers (retries, backoff) that share Dispatch's small global pool, as a blocking wait here once did.
///
/// Under `Locked` (a pthread mutex), not `Synchronization.Mutex`: on Linux the latter locks with atomics and
/// futexes inside the uninstrumented standard library, so the thread sanitizer sees no order between the
/// signalling thread and a waiter and reported a race here now and then (`make test-tsan`).
package final class ThreadExit: Sendable {
    private struct State {
        var ended = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    package init() {}

    /// Called by the thread as its last act.
    package func signal() {
        let waiters = state.withLock { state in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    package func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if !state.ended { state.waiters.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
    }
}
