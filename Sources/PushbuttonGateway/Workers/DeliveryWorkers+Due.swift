import Foundation
import PushbuttonStore
import PushbuttonSupport

/// Scheduled work without polling for it (issue 35): the store's lease skips recipients not due yet, and an
/// idle worker's wait ends when the next of them comes due (or at a wake signal, or the poll fallback).
extension DeliveryWorkers {
    /// How long an idle worker waits at most: until the next recipient comes due, never longer than the
    /// poll interval (the fallback for a lost signal), nor less than nothing.
    func idleTimeout() async -> Duration {
        let store = self.store
        let at = now()
        let experiments = self.experiments
        let next = try? await threads.perform { () throws(StoreError) -> Date? in
            // A test phase's decision wakes an idle worker too (issue 36).
            let due = try store.nextDue(now: at)
            guard let decision = experiments?.nextDecision() else { return due }
            return min(due ?? decision, decision)
        }
        return Self.idleTimeout(nextDue: next ?? nil, now: at, pollInterval: options.pollInterval)
    }

    /// Whether a busy worker should look for due experiment decisions: a second after the last look.
    func experimentsDue() -> Bool {
        guard experiments != nil else { return false }
        let at = now()
        return experimentsChecked.withLock { checked in
            guard let last = checked, at.timeIntervalSince(last) < 1 else { return true }
            return false
        }
    }

    /// Makes the experiment decisions due now, on a store thread (claimed in the store, so one process makes
    /// each); the roll-out's recipients are then queued as any page is.
    func decideExperiments() async {
        guard let experiments else { return }
        let at = now()
        experimentsChecked.withLock { $0 = at }
        _ = try? await threads.perform { () throws(StoreError) in experiments.decideDue(now: at) }
    }

    /// The rule of ``idleTimeout()``: the time to `nextDue` from `now`, at most `pollInterval`. A due time
    /// already past that the lease did not get is another process's lease under way (its batch locked): a
    /// short wait (``busyRetry``), not a spin.
    static func idleTimeout(nextDue: Date?, now: Date, pollInterval: Duration) -> Duration {
        guard let nextDue else { return pollInterval }
        let seconds = nextDue.timeIntervalSince(now)
        guard seconds > 0 else { return min(pollInterval, busyRetry) }
        return min(pollInterval, .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }

    /// The wait after an empty lease while work is already due elsewhere.
    static let busyRetry: Duration = .milliseconds(50)
}
