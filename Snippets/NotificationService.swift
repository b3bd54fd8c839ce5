// The Notification Service Extension's principal class: registers a payload's dynamic buttons before iOS
// displays the notification.
import PushbuttonUserNotifications

// snippet.hide
#if canImport(UserNotifications)
    // snippet.show
    import UserNotifications
// snippet.hide
#else
    import UserNotificationsStandIn
#endif
#if !os(tvOS)
    // snippet.show

    final class NotificationService: UNNotificationServiceExtension {
        private let pushbutton = PushbuttonNotificationService()

        override func didReceive(
            _ request: UNNotificationRequest,
            withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
        ) {
            pushbutton.didReceive(request, withContentHandler: contentHandler)
        }

        override func serviceExtensionTimeWillExpire() {
            pushbutton.serviceExtensionTimeWillExpire()
        }
    }
// snippet.hide
#endif
