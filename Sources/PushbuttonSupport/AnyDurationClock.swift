import Dispatch

/// A clock reduced to what waiting code needs (sleep, and time elapsed since a start), so any
/// `Clock` with `Duration` can be injected: `ContinuousClock` in apps and servers, ``ManualClock`` in tests
/// (the router's deadlines, the sender's backoffs and request deadlines, the outbox's and the gateway's polls).
package struct AnyDurationClock: Sendable {
    /// The wall clock everything runs on outside tests.
    package static let continuous = AnyDurationClock(ContinuousClock())

    private let sleepFor: @Sendable (Duration) async throws -> Void
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration
    private let runAfter: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

    package init<C: Clock>(_ clock: C) where C.Duration == Duration, C: Sendable {
        // The wall clock's sleeps on a Dispatch timer a cancellation removes (see DispatchSleep); another clock's
        // on itself.
        if clock is ContinuousClock {
            sleepFor = { duration in try await DispatchSleep.sleep(for: duration) }
        } else {
            sleepFor = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
        }
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
        // The wall clock's timers run on Dispatch's threads, as they always did (no task, nothing waits on Swift's
        // small cooperative pool); another clock's in a task that sleeps on it.
        if clock is ContinuousClock {
            runAfter = { delay, body in
                let (seconds, attoseconds) = delay.components
                let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds)), execute: body)
            }
        } else {
            runAfter = { delay, body in
                Task {
                    try? await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil)
                    body()
                }
            }
        }
    }

    /// Runs `body` once `delay` has passed on this clock (a retry's backoff), without a caller waiting.
    package func run(after delay: Duration, _ body: @escaping @Sendable () -> Void) { runAfter(delay, body) }

    package func sleep(for duration: Duration) async throws { try await sleepFor(duration) }

    /// Starts measuring; call the result to read the time elapsed since.
    package func stopwatch() -> @Sendable () -> Duration { startStopwatch() }
}
