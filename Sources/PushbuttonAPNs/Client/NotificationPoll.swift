/// What a ``SynchronousNotificationSource`` has now.
package enum NotificationPoll: Sendable {
    case notification(APNsNotification)
    /// Nothing ready yet; more may come.
    case empty
    /// The input ended.
    case finished
}

/// A bulk send's input that can be read without waiting (``BoundedChannel``, and the CLI's wrapper of it):
/// the bulk sender then refills its window on the thread where the answers arrive, so a notification goes
/// from the input to the connection without a hop through the caller's task.
package protocol SynchronousNotificationSource: Sendable {
    func poll() -> NotificationPoll
}
