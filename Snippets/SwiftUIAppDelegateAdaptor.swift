// A SwiftUI app: one `@main`, the App; Pushbutton's setup lives in the app delegate it adopts with
// `@UIApplicationDelegateAdaptor` (a second `@main` on the delegate would not compile).
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
// On Linux the stand-in has the SwiftUI and UIKit shapes used here, so this file is compiled by `swift build`.
#if canImport(SwiftUI) && canImport(UIKit)
    // snippet.show
    import SwiftUI
    import UIKit
// snippet.hide
#else
    import UserNotificationsStandIn
#endif
#if (canImport(SwiftUI) && canImport(UIKit)) || os(Linux)
    // snippet.show

    @main
    struct ChatterApp: App {
        @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

        var body: some Scene {
            WindowGroup { Text("Chatter") }
        }
    }

    final class AppDelegate: NSObject, UIApplicationDelegate {
        let center = SystemNotificationCenter()

        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
        ) -> Bool {
            do {
                let router = center.start(
                    registering: try Manifest.bundled(), backend: try Outbox.applicationSupport(),
                    urlOpener: UIKitURLOpener())
                try router.registry.register("like") { context in
                    print("liked", context.arguments["message_id"] ?? "?")
                }
            } catch {
                print("Pushbutton is not set up: \(error)")
            }
            return true
        }

        func application(
            _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
        ) {
            center.didRegisterForRemoteNotifications(withDeviceToken: deviceToken)
        }
    }
// snippet.hide
#else
    /// macOS, watchOS, tvOS: no UIKit app delegate; `swift build` on a Mac still gets an entry point.
    @main enum NoUIKit { static func main() {} }
#endif
