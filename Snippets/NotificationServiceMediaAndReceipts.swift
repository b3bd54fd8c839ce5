// The Notification Service Extension with media and display receipts: the outbox in the App Group container the app
// and the extension share, the gateway client over it, and the service with receipts on.
import Foundation
import PushbuttonOutbox
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
        /// The same App Group in the app's and the extension's entitlements (com.apple.security.application-groups).
        static let appGroup = "group.com.example.chat"

        private let pushbutton: PushbuttonNotificationService = {
            // The app opens the same outbox (`Outbox.applicationSupport(appGroup:)`) and registers its token through
            // a GatewayClient over it: the extension reads that registration beside the database.
            let client = try? GatewayClient(
                connection: GatewayConnection(
                    baseURL: "https://push.example.com", app: "chat", publishableKey: "pb_pk_chat_…"),
                outbox: Outbox.applicationSupport(appGroup: appGroup))
            let options = NotificationServiceOptions(
                receipts: client,  // opt-in: nil records none
                onMedia: { report in print(report.outcome) })  // attached, or why not (404, too large, timed out…)
            return PushbuttonNotificationService(options: options)
        }()

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
