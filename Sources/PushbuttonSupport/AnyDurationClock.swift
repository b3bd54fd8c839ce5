/// A clock reduced to what waiting code needs (sleep, and time elapsed since a start), so any
/// `Clock` with `Duration` can be injected: `ContinuousClock` in apps and servers, ``ManualClock`` in tests
/// (the router's deadlines, the sender's backoffs and request deadlines, the outbox's and the gateway's polls).
package struct AnyDurationClock: Sendable {
    /// The wall clock everything runs on outside tests.
    package static let continuous = AnyDurationClock(ContinuousClock())

    private let sleepFor: @Sendable (Duration) async throws -> Void
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration

    package init<C: Clock>(_ clock: C) where C.Duration == Duration, C: Sendable {
        sleepFor = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
        startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    package func sleep(for duration: Duration) async throws { try await sleepFor(duration) }

    /// Starts measuring; call the result to read the time elapsed since.
    package func stopwatch() -> @Sendable () -> Duration { startStopwatch() }
}
