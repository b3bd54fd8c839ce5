/// A clock reduced to what the router needs (sleep, and time elapsed since a start), so any
/// `Clock` with `Duration` can be injected: `ContinuousClock` in apps, ``ManualClock`` in tests.
package struct AnyDurationClock: Sendable {
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
