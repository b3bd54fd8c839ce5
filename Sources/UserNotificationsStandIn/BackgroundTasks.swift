import Foundation
import PushbuttonSupport

// Not UserNotifications: the part of Apple's BackgroundTasks framework the outbox's scheduled drain uses
// (`SystemBackgroundTasks` in PushbuttonUserNotifications), with Apple's names, signatures and availability, so that
// bridge compiles and is tested here. Checked against developer.apple.com/documentation/backgroundtasks
// (BGTaskScheduler.h, BGTask.h, BGTaskRequest.h): iOS 13, Mac Catalyst 13.1, tvOS 13, visionOS 1; not macOS, not
// watchOS. The framework declares no `@Sendable` and no actor isolation: the launch handler is a plain
// `(BGTask) -> Void` run on the queue given (a background queue for `nil`), the expiration handler a plain
// `(() -> Void)?`, and neither class is `Sendable`.

/// Mirrors `BGTaskScheduler`: registers launch handlers and submits task requests.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTaskScheduler: NSObject {
    nonisolated(unsafe) private static let sharedScheduler = BGTaskScheduler()

    /// The shared scheduler.
    open class var shared: BGTaskScheduler { sharedScheduler }

    /// Registers the launch handler of the tasks named `identifier`; `false` when the identifier is not in the
    /// app's `BGTaskSchedulerPermittedIdentifiers` (the stand-in permits every identifier unless
    /// ``standInPermittedIdentifiers`` is set). Every registration must be done before the app finishes
    /// launching. Checked against `register(forTaskWithIdentifier:using:launchHandler:)`: iOS 13, not in app
    /// extensions ("Only the host app may register launch handlers"), handler `@escaping (BGTask) -> Void`.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    open func register(
        forTaskWithIdentifier identifier: String, using queue: DispatchQueue?,
        launchHandler: @escaping (BGTask) -> Void
    ) -> Bool {
        state.withLock { state in
            if let permitted = state.permitted, !permitted.contains(identifier) { return false }
            state.handlers[identifier] = launchHandler
            return true
        }
    }

    /// Submits a request to run a task later. Checked against `submit(_:)` (`submitTaskRequest:error:`): iOS 13,
    /// throws (`BGTaskScheduler.Error`: unavailable, tooManyPendingTaskRequests, notPermitted).
    open func submit(_ taskRequest: BGTaskRequest) throws {
        try state.withLock { state in
            if let permitted = state.permitted, !permitted.contains(taskRequest.identifier) {
                throw StandInBackgroundTaskError.notPermitted(taskRequest.identifier)
            }
            state.submitted.append(taskRequest)
        }
    }

    /// Cancels the pending request of the task `identifier`. Checked against `cancel(taskRequestWithIdentifier:)`.
    open func cancel(taskRequestWithIdentifier identifier: String) {
        state.withLock { $0.submitted.removeAll { $0.identifier == identifier } }
    }

    // MARK: Stand-in only

    private let state = Locked(StandInScheduler())

    /// The identifiers the app's Info.plist permits (`nil`: every identifier).
    public var standInPermittedIdentifiers: Set<String>? {
        get { state.withLock { $0.permitted } }
        set { state.withLock { $0.permitted = newValue } }
    }

    /// The requests submitted and not yet run or cancelled, in order.
    public var standInSubmitted: [BGTaskRequest] { state.withLock { $0.submitted } }

    /// The system runs the task `identifier`: its pending request is removed and its launch handler called with
    /// a new task, which is returned (`nil` when no handler is registered).
    @discardableResult
    public func standInLaunch(_ identifier: String, processing: Bool = false) -> BGTask? {
        let handler = state.withLock { state -> ((BGTask) -> Void)? in
            state.submitted.removeAll { $0.identifier == identifier }
            return state.handlers[identifier]
        }
        guard let handler else { return nil }
        let task: BGTask =
            processing ? BGProcessingTask(identifier: identifier) : BGAppRefreshTask(identifier: identifier)
        handler(task)
        return task
    }
}

/// Stand-in only: what ``BGTaskScheduler`` holds.
struct StandInScheduler {
    var permitted: Set<String>?
    var handlers: [String: (BGTask) -> Void] = [:]
    var submitted: [BGTaskRequest] = []
}

/// Stand-in only: the error `submit(_:)` throws for an identifier the Info.plist does not list.
enum StandInBackgroundTaskError: Error {
    case notPermitted(String)
}

/// Mirrors `BGTask`: one run of a registered task.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTask: NSObject {
    /// The task's identifier, as registered.
    open var identifier: String { standInIdentifier }

    /// Called shortly before the task's time runs out; the system sets it to `nil` after calling it. Checked
    /// against `expirationHandler`: `(() -> Void)?`, no `@Sendable`.
    open var expirationHandler: (() -> Void)? {
        get { state.withLock { $0.expiration } }
        set { state.withLock { $0.expiration = newValue } }
    }

    /// Tells the scheduler the task is done. Checked against `setTaskCompleted(success:)`.
    open func setTaskCompleted(success: Bool) {
        state.withLock { $0.completions.append(success) }
    }

    // MARK: Stand-in only

    private let standInIdentifier: String
    private let state = Locked(StandInTask())

    /// Stand-in only: the system makes tasks.
    init(identifier: String) {
        standInIdentifier = identifier
        super.init()
    }

    /// Every `success` passed to ``setTaskCompleted(success:)``, in order (Apple expects exactly one).
    public var standInCompletions: [Bool] { state.withLock { $0.completions } }

    /// The task's time is running out: calls the expiration handler, then clears it, as the system does.
    public func standInExpire() {
        let handler = state.withLock { state -> (() -> Void)? in
            defer { state.expiration = nil }
            return state.expiration
        }
        handler?()
    }
}

/// Stand-in only: what a ``BGTask`` holds.
struct StandInTask {
    var expiration: (() -> Void)?
    var completions: [Bool] = []
}

/// Mirrors `BGAppRefreshTask`: a short task to bring the app's content up to date (about 30 seconds).
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGAppRefreshTask: BGTask {}

/// Mirrors `BGProcessingTask`: a longer, deferrable task (minutes), run when the device is idle.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGProcessingTask: BGTask {}

/// Mirrors `BGTaskRequest`: a request to run a registered task.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGTaskRequest: NSObject {
    /// The task's identifier.
    public let identifier: String
    /// The earliest the task may run (`nil`: no delay).
    open var earliestBeginDate: Date?

    /// Stand-in only: the subclasses' initializers.
    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }
}

/// Mirrors `BGAppRefreshTaskRequest`. Checked against `init(identifier:)`: iOS 13.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGAppRefreshTaskRequest: BGTaskRequest {
    /// A request for the app-refresh task `identifier`.
    public override init(identifier: String) { super.init(identifier: identifier) }
}

/// Mirrors `BGProcessingTaskRequest`: with the conditions the task needs.
@available(iOS 13.0, macCatalyst 13.1, tvOS 13.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
open class BGProcessingTaskRequest: BGTaskRequest {
    /// Whether the task needs a network connection.
    open var requiresNetworkConnectivity = false
    /// Whether the task needs the device on power.
    open var requiresExternalPower = false

    /// A request for the processing task `identifier`.
    public override init(identifier: String) { super.init(identifier: identifier) }
}
