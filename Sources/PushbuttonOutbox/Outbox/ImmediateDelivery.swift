import Foundation
import PushbuttonReceiver
import PushbuttonSupport

/// The router's backend for background buttons that must reach the server **during** the tap: each request is
/// committed to the ``Outbox`` first (the fallback: nothing is lost), then delivered at once, within the seconds
/// iOS gives a background action, by draining the outbox with ``sender``. The router's completion handler waits
/// for ``deliver(_:)``, so the attempt runs while iOS keeps the app awake for the action.
///
/// The attempt ends when the outbox is drained or when ``budget`` has passed, whichever comes first; the budget
/// is kept under the router's deadline (``RouterOptions``) so the completion handler is called before iOS
/// suspends the app. What the attempt did not deliver stays in the outbox for the next worker: a running
/// ``Outbox/run(sender:pollInterval:)``, the next launch's drain, or a `BGTaskScheduler` task.
///
/// ```swift
/// let outbox = try Outbox.applicationSupport()
/// let backend = ImmediateDelivery(outbox: outbox, sender: URLSessionSender(timeout: .seconds(8)))
/// let router = center.start(registering: manifest, backend: backend)
/// ```
public final class ImmediateDelivery: BackendDelivery {
    /// What one attempt came to.
    public enum Attempt: Sendable, Hashable {
        /// The outbox was drained: what it delivered, retried and dead-lettered.
        case drained(DrainReport)
        /// Another worker holds the outbox (it delivers the request).
        case workerBusy
        /// The budget passed first; the request waits in the outbox.
        case outOfTime
        /// The drain failed (the database); the request waits in the outbox.
        case failed(String)
    }

    /// The durable store every request is committed to first.
    public let outbox: Outbox
    /// How requests are sent.
    public let sender: any OutboxSender
    /// How long an attempt may take (default 15 seconds: under the router's 20 s background deadline, itself
    /// under iOS's window of about 30 s).
    public let budget: Duration
    /// The system's time for the attempt (`UIKitBackgroundWindow` on iOS); when it nears its end the attempt is
    /// stopped, whatever the budget says.
    public let window: (any BackgroundWindow)?
    private let clock: AnyDurationClock
    private let observers = Locked([@Sendable (Attempt) -> Void]())

    /// - Parameters:
    ///   - window: a background task assertion held during each attempt (default none).
    ///   - clock: the clock the budget is measured on (a `ManualClock` in tests).
    public init<C: Clock>(
        outbox: Outbox, sender: any OutboxSender, budget: Duration = .seconds(15),
        window: (any BackgroundWindow)? = nil, clock: C
    ) where C.Duration == Duration, C: Sendable {
        self.outbox = outbox
        self.sender = sender
        self.budget = budget
        self.window = window
        self.clock = AnyDurationClock(clock)
    }

    /// An immediate delivery on the continuous clock.
    public convenience init(
        outbox: Outbox, sender: any OutboxSender, budget: Duration = .seconds(15),
        window: (any BackgroundWindow)? = nil
    ) {
        self.init(outbox: outbox, sender: sender, budget: budget, window: window, clock: ContinuousClock())
    }

    /// Calls `observer` with the outcome of every attempt (for logs and tests).
    public func observe(_ observer: @escaping @Sendable (Attempt) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Commits `request` to the outbox (throwing when it cannot be stored), then attempts delivery until the
    /// outbox is drained or the budget passes. It returns in both cases: the request is safe either way.
    public func deliver(_ request: BackendRequest) async throws {
        try await outbox.deliver(request)
        let outcome = await attempt()
        for observer in observers.withLock({ $0 }) { observer(outcome) }
    }

    /// Drains the outbox within ``budget``.
    public func attempt() async -> Attempt {
        let outbox = outbox
        let sender = sender
        let drain = Task { () -> Attempt in
            do {
                return .drained(try await outbox.drain(sender: sender))
            } catch let error as OutboxError where error.code == .workerBusy {
                return .workerBusy
            } catch {
                return .failed("\(error)")
            }
        }
        // The system's window closing stops the drain: it returns with what it did, and the rest waits.
        let held = await window?.begin("Pushbutton delivery") { drain.cancel() }
        let resumed = Locked(false)
        let timer = Locked<Task<Void, Never>?>(nil)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Attempt, Never>) in
            let finish: @Sendable (Attempt) -> Void = { value in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: value) }
            }
            Task { finish(await drain.value) }
            let sleeper = Task { [clock, budget] in
                do {
                    try await clock.sleep(for: budget)
                    finish(.outOfTime)
                } catch {
                    // Cancelled: the drain finished first.
                }
            }
            timer.withLock { $0 = sleeper }
        }
        timer.withLock { $0?.cancel() }
        // A drain still under way at the deadline is cancelled; what it had in flight is sent again later, under
        // the same idempotency key.
        if outcome == .outOfTime { drain.cancel() }
        if let held { await window?.end(held) }
        return outcome
    }
}
