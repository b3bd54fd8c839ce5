// The app delegate both Chatter variants use: the two-line start, the gateway, the actions.
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonUserNotifications

#if canImport(UIKit)
    import UIKit
#else
    import UserNotificationsStandIn
#endif

final class ChatterAppDelegate: NSObject, UIApplicationDelegate {
    /// Where the sample's gateway runs (`pushbutton serve`); change it for yours.
    static let gateway = GatewayConnection(
        baseURL: "http://192.168.1.10:8080", app: "chatter", publishableKey: "pb_pk_chatter_example")

    let center = SystemNotificationCenter()
    private(set) var router: ResponseRouter?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        do {
            // The App Group lets the service extension and the app share the outbox.
            let outbox = try Outbox.applicationSupport(appGroup: "group.com.example.chatter")
            let gateway = try GatewayClient(connection: Self.gateway, outbox: outbox)
            let sender = gateway.sender()
            // A Like reaches the gateway during the tap, under a background task assertion.
            let backend = ImmediateDelivery(outbox: outbox, sender: sender, window: UIKitBackgroundWindow())
            let router = center.start(
                registering: try Manifest.bundled(),  // notifications.json, the Chatter manifest
                backend: backend,
                urlOpener: UIKitURLOpener(), deviceTokens: gateway)
            gateway.attach(to: router)
            try ChatterActions.register(on: router)
            Task { try await outbox.run(sender: sender) }
            // What a tap could not deliver at once: a BGTaskScheduler task drains it (identifier in the Info.plist).
            let refresh = OutboxRefresh(
                identifier: "com.example.chatter.outbox-drain", outbox: outbox, sender: sender,
                scheduler: SystemBackgroundTasks())
            if refresh.register() { try? refresh.schedule() }
            self.router = router
        } catch {
            print("Chatter: Pushbutton is not set up: \(error)")
        }
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        center.didRegisterForRemoteNotifications(withDeviceToken: deviceToken)
        print("Chatter: device token", deviceToken.map { String(format: "%02x", $0) }.joined())
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
        print("Chatter: no device token (is the Push Notifications capability on?): \(error)")
    }
}
