/// Receives the user's responses, as a `UNUserNotificationCenterDelegate` does.
///
/// The handler must call `completionHandler` once it has finished; the system ends (on iOS: kills)
/// an app that does not call it in time. ``ResponseRouter`` calls it exactly once, by construction.
///
/// `completionHandler` is not `@Sendable`, because the system's are not: UIKit and UserNotifications hand
/// the app plain `() -> Void` blocks (which they document as callable from any thread), and a Swift 6 app
/// delegate cannot pass one where a `@Sendable` closure is required.
public protocol NotificationResponseHandler: Sendable {
    func handle(_ response: NotificationResponse, completionHandler: @escaping () -> Void)
}
