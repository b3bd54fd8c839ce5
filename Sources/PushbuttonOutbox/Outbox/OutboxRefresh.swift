import Foundation
import PushbuttonReceiver
import PushbuttonSupport

/// Drains the outbox in a scheduled background task (on iOS a `BGTaskScheduler` task, through
/// `SystemBackgroundTasks`): what a tap's immediate attempt could not deliver reaches the backend without waiting
/// for the next launch.
///
/// ``register()`` and ``schedule()`` before the app finishes launching (scheduling again replaces the request). Each run asks
/// for the next one first, then drains until the outbox is empty, ``budget`` passes or the system says time is up
/// (the drain is cancelled at once), and completes the task exactly once: successfully when the outbox was drained.
/// The app's Info.plist lists ``identifier`` under `BGTaskSchedulerPermittedIdentifiers` and has `fetch` (or
/// `processing`) in `UIBackgroundModes`.
///
/// ```swift
/// let refresh = OutboxRefresh(
///     identifier: "com.example.chatter.outbox-drain", outbox: outbox, sender: gateway.sender(),
///     scheduler: SystemBackgroundTasks())
/// if refresh.register() { try? refresh.schedule() }  // in application(_:didFinishLaunchingWithOptions:)
/// ```
public final class OutboxRefresh: Sendable {
    /// The task's identifier, as listed in `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The outbox drained.
    public let outbox: Outbox
    /// How requests are sent.
    public let sender: any OutboxSender
    /// The system's scheduler.
    public let scheduler: any BackgroundTaskScheduler
    /// How long after a run (or ``schedule()``) the next may start, at the earliest (default 15 minutes; the
    /// system decides when it actually runs).
    public let interval: Duration
    /// How long a run may drain (default 25 seconds: an app-refresh task gets about 30).
    public let budget: Duration
    private let clock: AnyDurationClock
    private let now: @Sendable () -> Date
    private let observers = Locked([@Sendable (ImmediateDelivery.Attempt) -> Void]())

    /// - Parameters:
    ///   - clock: the clock the budget is measured on (a `ManualClock` in tests).
    ///   - now: the date the next run's earliest begin is counted from.
    public init<C: Clock>(
        identifier: String, outbox: Outbox, sender: any OutboxSender, scheduler: any BackgroundTaskScheduler,
        interval: Duration = .seconds(15 * 60), budget: Duration = .seconds(25), clock: C,
        now: @escaping @Sendable () -> Date = { Date() }
    ) where C.Duration == Duration, C: Sendable {
        self.identifier = identifier
        self.outbox = outbox
        self.sender = sender
        self.scheduler = scheduler
        self.interval = interval
        self.budget = budget
        self.clock = AnyDurationClock(clock)
        self.now = now
    }

    /// A scheduled drain on the continuous clock.
    public convenience init(
        identifier: String, outbox: Outbox, sender: any OutboxSender, scheduler: any BackgroundTaskScheduler,
        interval: Duration = .seconds(15 * 60), budget: Duration = .seconds(25)
    ) {
        self.init(
            identifier: identifier, outbox: outbox, sender: sender, scheduler: scheduler, interval: interval,
            budget: budget, clock: ContinuousClock())
    }

    /// Calls `observer` with the outcome of every run (for logs and tests).
    public func observe(_ observer: @escaping @Sendable (ImmediateDelivery.Attempt) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Registers the task's launch handler; `false` when the system refuses the identifier (missing from the
    /// Info.plist). Call it before the app finishes launching, once per launch.
    @discardableResult
    public func register() -> Bool {
        scheduler.register(identifier) { [self] run in
            Task { await self.run(run) }
        }
    }

    /// Asks for a run no sooner than ``interval`` from now (replacing a pending request).
    public func schedule() throws {
        try scheduler.schedule(identifier, earliestBegin: now().addingTimeInterval(interval.seconds))
    }

    /// One run: schedules the next, drains within ``budget`` and the task's time, completes the task once.
    @discardableResult
    public func run(_ task: any BackgroundTaskRun) async -> ImmediateDelivery.Attempt {
        // The next run is asked for first, so a run cut short still has a successor.
        try? schedule()
        let outcome = await BoundedDrain(outbox: outbox, sender: sender, budget: budget, clock: clock).run { stop in
            task.setExpiration { stop() }
        }
        task.complete(success: Self.succeeded(outcome))
        for observer in observers.withLock({ $0 }) { observer(outcome) }
        return outcome
    }

    /// A run succeeded when it drained the outbox (another worker holding it is not a failure either: it
    /// delivers).
    static func succeeded(_ outcome: ImmediateDelivery.Attempt) -> Bool {
        switch outcome {
        case .drained, .workerBusy: return true
        case .outOfTime, .expired, .failed: return false
        }
    }
}
