import Foundation
import PushbuttonSupport

/// The reconnection backoff one store's PostgreSQL connections share: while the server is away they make one
/// attempt per delay between them (not one each), and once any of them has connected again the others try at
/// once.
///
/// `@unchecked Sendable`: `backoff` is only reached under `lock`; the clock's stopwatch is `Sendable`.
final class ReconnectGate: @unchecked Sendable {
    private let lock = NSLock()
    private var backoff = ReconnectBackoff()
    private let elapsed: @Sendable () -> Duration

    /// - Parameter clock: what times the delays (a `ManualClock` in tests).
    init(clock: AnyDurationClock = AnyDurationClock(ContinuousClock())) {
        elapsed = clock.stopwatch()
    }

    /// How long until the next attempt is allowed; zero: attempt now.
    func wait() -> Duration {
        let now = elapsed()
        return lock.withLock { backoff.remaining(at: now) }
    }

    /// An attempt failed: the next waits longer.
    func failed() {
        let now = elapsed()
        lock.withLock { backoff.failed(at: now) }
    }

    /// An attempt succeeded: the server is back, every connection may try at once.
    func succeeded() {
        lock.withLock { backoff.succeeded() }
    }
}
