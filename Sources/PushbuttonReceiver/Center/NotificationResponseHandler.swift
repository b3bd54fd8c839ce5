/// Receives the user's responses, as a `UNUserNotificationCenterDelegate` does.
///
/// The handler must call `completionHandler` once it has finished; the system ends (on iOS: kills)
/// an app that does not call it in time. ``ResponseRouter`` calls it exactly once, by construction.
public protocol NotificationResponseHandler: Sendable {
    func handle(_ response: NotificationResponse, completionHandler: @escaping @Sendable () -> Void)
}
