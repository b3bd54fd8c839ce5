import Foundation

/// The system's scheduler of deferred background work (on iOS, `BGTaskScheduler`: `SystemBackgroundTasks` in
/// PushbuttonUserNotifications). Work registers a launch handler for its identifier before the app finishes
/// launching, and asks for the next run; the system launches the app in the background for it when it sees fit.
public protocol BackgroundTaskScheduler: Sendable {
    /// Registers `launch` for the runs of the task `identifier`; `false` when the system refuses it (on iOS, an
    /// identifier missing from `BGTaskSchedulerPermittedIdentifiers`).
    func register(_ identifier: String, launch: @escaping @Sendable (any BackgroundTaskRun) -> Void) -> Bool
    /// Asks for a run of the task `identifier` no sooner than `earliestBegin`.
    func schedule(_ identifier: String, earliestBegin: Date?) throws
}
