// Chatter's Notification Service Extension: registers a payload's dynamic buttons (`"pushbutton": {"define": …}`)
// before iOS shows the notification. Compiled by SampleAppCompileTests against the stand-in, Swift 6 mode.
import PushbuttonUserNotifications

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

final class NotificationService: UNNotificationServiceExtension {
    private let pushbutton = PushbuttonNotificationService()

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        pushbutton.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        pushbutton.serviceExtensionTimeWillExpire()
    }
}
