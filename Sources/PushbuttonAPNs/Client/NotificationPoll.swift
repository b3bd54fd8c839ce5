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
    /// `handler` is called, on the input's thread, when a notification or the end arrives after a poll
    /// found nothing: the bulk sender then refills its window, however few notifications are under way.
    func onAvailable(_ handler: @escaping @Sendable () -> Void)
}
