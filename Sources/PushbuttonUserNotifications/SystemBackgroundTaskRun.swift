#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import PushbuttonReceiver
    import PushbuttonSupport

    #if canImport(UserNotifications)
        import BackgroundTasks
    #else
        import UserNotificationsStandIn
    #endif

    /// One `BGTask` run as a `BackgroundTaskRun` (PushbuttonReceiver): completed at most once, whoever asks first
    /// (the work's end or the expiration).
    ///
    /// `@unchecked Sendable`: `BGTask` is not marked `Sendable`, but the framework calls the expiration handler on
    /// its own queue and takes `setTaskCompleted(success:)` from any thread (Apple's sample completes tasks from an
    /// operation's completion block); the task is only read, and completion is guarded by a lock.
    final class SystemBackgroundTaskRun: BackgroundTaskRun, @unchecked Sendable {
        private let task: BGTask
        private let completed = Locked(false)

        init(_ task: BGTask) { self.task = task }

        func setExpiration(_ handler: @escaping @Sendable () -> Void) {
            task.expirationHandler = { handler() }
        }

        func complete(success: Bool) {
            let first = completed.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { task.setTaskCompleted(success: success) }
        }
    }
#endif
