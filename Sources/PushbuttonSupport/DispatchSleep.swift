import Dispatch

/// The wall clock's sleep for ``AnyDurationClock/continuous``: a Dispatch timer that a cancellation takes out of
/// Dispatch's timer heap at once.
///
/// `Task.sleep` on Linux leaves a cancelled sleep's timer in that heap until its deadline: the task resumes at the
/// cancellation, the timer still fires later. A gateway cancels a sleep for almost every notification it sends (a
/// worker's idle wait ended by the next notification, a batch's lease renewal ended by its outcomes), so after a
/// burst of 10,000 notifications their timers went on firing for the next 10 seconds: 4% of a core on an idle
/// gateway (issue 34, measured with `perf`: `_dispatch_timer_heap_resift`).
package enum DispatchSleep {
    /// Sleeps for `duration` on the wall clock; throws `CancellationError` at once if the task is cancelled.
    /// `removed` runs once the timer is out of Dispatch's heap (fired or cancelled): what a test waits for.
    package static func sleep(for duration: Duration, removed: (@Sendable () -> Void)? = nil) async throws {
        // A Dispatch source is safe to use from any thread (Dispatch does not say so to Swift).
        nonisolated(unsafe) let timer = DispatchSource.makeTimerSource(queue: .global())
        let state = Locked(State.scheduled)
        if let removed { timer.setCancelHandler(handler: removed) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelledFirst = state.withLock { state -> Bool in
                    guard case .scheduled = state else { return true }
                    state = .waiting(continuation)
                    return false
                }
                guard !cancelledFirst else {
                    timer.activate()
                    timer.cancel()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                timer.setEventHandler {
                    timer.cancel()
                    finish(state, with: .success(()))
                }
                timer.schedule(deadline: .now() + Self.dispatchInterval(duration), leeway: .nanoseconds(0))
                timer.activate()
            }
        } onCancel: {
            // Before the continuation is stored, the state says so and the body gives up at once instead.
            let stored = state.withLock { state -> Bool in
                switch state {
                case .scheduled:
                    state = .done
                    return false
                case .waiting: return true
                case .done: return false
                }
            }
            guard stored else { return }
            timer.cancel()
            finish(state, with: .failure(CancellationError()))
        }
    }

    private enum State: Sendable {
        case scheduled
        case waiting(CheckedContinuation<Void, any Error>)
        case done
    }

    /// Resumes the sleeper once, with whichever of the timer and the cancellation came first.
    private static func finish(_ state: Locked<State>, with result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .done
            return continuation
        }
        continuation?.resume(with: result)
    }

    /// `duration` as Dispatch's interval, in nanoseconds (durations beyond what that holds: a century).
    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds < 3_153_600_000 else { return .seconds(3_153_600_000) }
        return .nanoseconds(Int(max(0, seconds)) * 1_000_000_000 + Int(max(0, attoseconds) / 1_000_000_000))
    }
}
