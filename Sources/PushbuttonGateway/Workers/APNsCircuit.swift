import Foundation
import PushbuttonSupport

/// One app's circuit breaker in front of APNs. Closed, the workers send the app's recipients. After
/// ``threshold`` recipients in a row whose tries never reached APNs (no connection could be made), it opens:
/// the workers then hold the app's recipients (give them back to the queue without spending an attempt) and
/// let one batch through now and then as a probe, with a growing backoff on the injected clock. The first
/// recipient that reaches APNs (answered, whatever the answer) closes it. It says when it opens and closes,
/// once each, and shows its state in `/metrics`.
final class APNsCircuit: Sendable {
    /// Whether a worker sends a batch of the app's recipients now.
    enum Admission: Equatable {
        /// Closed, or open and a probe is due: send them.
        case send
        /// Open: give them back to the queue.
        case hold
    }

    private struct State {
        var unreachableInARow = 0
        var isOpen = false
        /// Probes that failed since it opened (the backoff's exponent).
        var failedProbes = 0
        /// When (on ``elapsed``) the next probe may go.
        var nextProbe = Duration.zero
        /// A probe batch is under way: the others wait for its outcome.
        var probing = false
    }

    let app: String
    /// Recipients in a row that never reached APNs before the circuit opens.
    let threshold: Int
    let baseBackoff: Duration
    let maximumBackoff: Duration
    private let elapsed: @Sendable () -> Duration
    private let log: @Sendable (String) -> Void
    private let changed: @Sendable (_ open: Bool) -> Void
    private let state = Locked(State())

    /// `log` gets one line when it opens and one when it closes; `changed` the new state (for the metrics).
    init(
        app: String, clock: AnyDurationClock, threshold: Int = 3, baseBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(30), log: @escaping @Sendable (String) -> Void,
        changed: @escaping @Sendable (_ open: Bool) -> Void = { _ in }
    ) {
        self.app = app
        self.threshold = max(1, threshold)
        self.baseBackoff = baseBackoff
        self.maximumBackoff = maximumBackoff
        elapsed = clock.stopwatch()
        self.log = log
        self.changed = changed
    }

    var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Whether every batch of the app's recipients would be held now (open, and no probe may go): the workers'
    /// leases then pass the app over, so its queue does not take the room of other apps' recipients.
    var holdsAll: Bool {
        let now = elapsed()
        return state.withLock { $0.isOpen && ($0.probing || now < $0.nextProbe) }
    }

    /// How long until a probe may go (zero when one may now; nil when closed or a probe is under way).
    var untilProbe: Duration? {
        let now = elapsed()
        return state.withLock { state in
            guard state.isOpen, !state.probing else { return nil }
            return max(.zero, state.nextProbe - now)
        }
    }

    /// Asked before sending a batch of the app's recipients. Open, it lets one batch through as a probe when
    /// the backoff has passed and no other probe is under way.
    func admit() -> Admission {
        let now = elapsed()
        return state.withLock { state in
            guard state.isOpen else { return .send }
            guard !state.probing, now >= state.nextProbe else { return .hold }
            state.probing = true
            return .send
        }
    }

    /// A sent batch's outcome: `reached` recipients got an answer from APNs, `unreachable` never reached it.
    func record(reached: Int, unreachable: Int) {
        let now = elapsed()
        enum Change { case opened, closed }
        let change: Change? = state.withLock { state in
            if reached > 0 {
                let wasOpen = state.isOpen
                state = State()
                return wasOpen ? .closed : nil
            }
            if state.isOpen {
                guard state.probing else { return nil }  // a batch sent before it opened
                state.probing = false
                guard unreachable > 0 else { return nil }  // nothing was tried: the next batch probes
                state.failedProbes += 1
                state.nextProbe = now + delay(afterProbes: state.failedProbes)
                return nil
            }
            guard unreachable > 0 else { return nil }
            state.unreachableInARow += unreachable
            guard state.unreachableInARow >= threshold else { return nil }
            state.isOpen = true
            state.nextProbe = now + delay(afterProbes: 0)
            return .opened
        }
        switch change {
        case .opened:
            changed(true)
            log(
                "pushbutton serve: app '\(app)': APNs unreachable (\(threshold)+ recipients in a row could not be sent): "
                    + "holding its queue and probing until a connection is made; attempts are not spent meanwhile")
        case .closed:
            changed(false)
            log("pushbutton serve: app '\(app)': APNs reachable again: sending resumes")
        case nil: break
        }
    }

    /// Whether a recipient held while APNs is unreachable is given up: its `apns-expiration` (epoch seconds,
    /// 0 meaning at once) has passed, so APNs would no longer deliver it either. Without one, it is held on.
    static func hasExpired(expiration: Int64?, now: Date) -> Bool {
        guard let expiration else { return false }
        return expiration <= Int64(now.timeIntervalSince1970)
    }

    /// The failure recorded for a recipient given up by ``hasExpired(expiration:now:)``.
    static func expiredCause(expiration: Int64, lastCause: String) -> String {
        "expired (apns-expiration \(expiration)) while APNs was unreachable; last try: \(lastCause)"
    }

    /// The wait before the next probe after `probes` failed ones: doubling from ``baseBackoff``, at most
    /// ``maximumBackoff``.
    private func delay(afterProbes probes: Int) -> Duration {
        var delay = baseBackoff
        for _ in 0..<min(probes, 16) where delay < maximumBackoff { delay *= 2 }
        return min(delay, maximumBackoff)
    }
}
