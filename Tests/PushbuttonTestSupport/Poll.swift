/// The one bounded poll the tests use, for progress that offers nothing to await: another process (a gateway
/// whose workers move a campaign through the store, a child writing a file) or a server's counters read over
/// HTTP. Where the code under test can say that something happened, await that instead (``ChangeSignal``, a
/// continuation, a readiness line); where it is a thread of this process, ``yieldUntil(_:)``.
///
/// The bound is generous on purpose, for the failure's message and not as a claim about speed: a full run on a
/// loaded machine stalled gateways for 20–40 s, and a short bound failed tests that would have passed. The
/// caller asserts on what it saw, so the result never depends on how long the poll took.
package enum Poll {
    /// Checks `condition` now and then every `interval` until it holds or `limit` has passed (or the task is
    /// cancelled); returns whether it held.
    @discardableResult
    package static func until(
        every interval: Duration = .milliseconds(50), within limit: Duration = .seconds(150),
        _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while true {
            if try await condition() { return true }
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            try? await Task.sleep(for: interval)
        }
    }
}
