// Chatter's Notification Service Extension: registers a payload's dynamic buttons (`"pushbutton": {"define": …}`),
// attaches its media (`"pushbutton": {"media": …}`: downloaded within the extension's time, the buttons shown
// whatever the media server does) and records a display receipt in the App Group outbox the app shares, sent to
// the gateway by whichever of the two runs next. Compiled by SampleAppCompileTests against the stand-in, Swift 6.
import Foundation
import PushbuttonOutbox
import PushbuttonUserNotifications

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

final class NotificationService: UNNotificationServiceExtension {
    /// The App Group in both targets' entitlements (project.yml), and the gateway the app registers with.
    static let appGroup = "group.com.example.chatter"
    static let gateway = GatewayConnection(
        baseURL: "http://192.168.1.10:8080", app: "chatter", publishableKey: "pb_pk_chatter_example")

    private let pushbutton: PushbuttonNotificationService = {
        // The receipts go through the outbox the app opens too (ChatterAppDelegate): never lost, counted once.
        let client = try? GatewayClient(
            connection: NotificationService.gateway,
            outbox: Outbox.applicationSupport(appGroup: NotificationService.appGroup))
        // The sample's gateway is plain http on a LAN; a real app's media is https only.
        return PushbuttonNotificationService(options: NotificationServiceOptions(receipts: client))
    }()

    override func didReceive(
        _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ) {
        pushbutton.didReceive(request, withContentHandler: contentHandler)
    }

    override func serviceExtensionTimeWillExpire() {
        pushbutton.serviceExtensionTimeWillExpire()
    }
}
