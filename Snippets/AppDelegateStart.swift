// The two-line setup in a UIKit app delegate: the router, permission, the APNs token handed to Pushbutton's
// gateway, and the outbox in Application Support (created at first launch).
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
// On Linux the stand-in has UIKit's and UserNotifications' shapes, so this file is compiled by `swift build`.
#if canImport(UIKit)
    // snippet.show
    import UIKit
// snippet.hide
#else
    import UserNotificationsStandIn
#endif
#if canImport(UIKit) || os(Linux)
    // snippet.show

    @main
    final class AppDelegate: UIResponder, UIApplicationDelegate {
        let center = SystemNotificationCenter()  // over UNUserNotificationCenter.current()
        private(set) var router: ResponseRouter?

        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            do {
                let outbox = try Outbox.applicationSupport()  // creates the folder at first launch
                let gateway = try GatewayClient(
                    connection: GatewayConnection(
                        baseURL: "https://push.example.com", app: "chatter", publishableKey: "pb_pk_live_…"),
                    outbox: outbox)
                // Installs the router before this method returns (the launching tap reaches it), then registers
                // the categories, asks for permission and for a device token, in a task.
                let router = center.start(
                    registering: try Manifest.bundled(), backend: outbox, urlOpener: UIKitURLOpener(),
                    deviceTokens: gateway)
                gateway.attach(to: router)
                Task { try await outbox.run(sender: gateway.sender()) }  // delivers what the outbox holds
                self.router = router
            } catch {
                print("Pushbutton is not set up: \(error)")  // the app runs on, without buttons
            }
            return true
        }

        func application(
            _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
        ) {
            center.didRegisterForRemoteNotifications(withDeviceToken: deviceToken)  // to the gateway
        }
    }
// snippet.hide
#else
    /// macOS, watchOS, tvOS: no UIKit app delegate; `swift build` on a Mac still gets an entry point.
    @main enum NoUIKit { static func main() {} }
#endif
