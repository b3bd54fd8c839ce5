import PushbuttonAPNs

/// The bulk sender reads the input from the transport's thread too (``SynchronousNotificationSource``);
/// a stop ends that reading as it ends the async one.
extension SendStop.Notifications: SynchronousNotificationSource {
    func poll() -> NotificationPoll {
        guard !stop.isRequested else { return .finished }
        let next = base.poll()
        // Read before the stop but handed over after it: not sent, like the rest of the input.
        if case .notification = next, stop.isRequested { return .finished }
        return next
    }

    func onAvailable(_ handler: @escaping @Sendable () -> Void) {
        base.onAvailable(handler)
    }
}
