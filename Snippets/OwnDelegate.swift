// An app that implements the notification delegate itself hands every response to the router. Use this instead
// of `start`'s delegate, or with it: a response handed over by both is routed once.
import Foundation
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
#if canImport(UIKit)
    // snippet.show
    import UIKit
    import UserNotifications
// snippet.hide
#else
    import UserNotificationsStandIn
#endif
#if canImport(UIKit) || os(Linux)
    // snippet.show

    final class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
        // `let`, not `lazy var`: the delegate method below is nonisolated, and reads it off the main actor.
        let center: SystemNotificationCenter
        let router: ResponseRouter

        override init() {
            center = SystemNotificationCenter()
            router = ResponseRouter(center: center, urlOpener: UIKitURLOpener())
            super.init()
        }

        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            UNUserNotificationCenter.current().delegate = self  // before this method returns
            return true
        }

        // UserNotifications calls this off the main actor, with a `@Sendable` completion handler.
        nonisolated func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
            withCompletionHandler completionHandler: @escaping @Sendable () -> Void
        ) {
            router.handle(UserNotificationsMapping.response(response), completionHandler: completionHandler)
        }
    }
// snippet.hide
#endif
