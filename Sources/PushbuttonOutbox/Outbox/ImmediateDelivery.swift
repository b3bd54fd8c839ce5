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
        /// The system said time is up first (the background window or task expired); the request waits in the
        /// outbox.
        case expired
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

    /// Drains the outbox within ``budget``, holding ``window`` while it runs; its expiration ends the attempt at
    /// once.
    public func attempt() async -> Attempt {
        var held: Int?
        let outcome = await BoundedDrain(outbox: outbox, sender: sender, budget: budget, clock: clock).run {
            [window] stop in
            held = await window?.begin("Pushbutton delivery") { stop() }
        }
        if let held { await window?.end(held) }
        return outcome
    }
}
