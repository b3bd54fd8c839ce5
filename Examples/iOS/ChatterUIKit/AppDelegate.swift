// The UIKit variant of Chatter: the app delegate is the `@main` entry point (no SwiftUI), and it implements the
// notification delegate itself, forwarding to the router (routed once even with `start`'s delegate installed).
// Compiled with Chatter/ChatterAppDelegate.swift and Chatter/ChatterActions.swift by SampleAppCompileTests.
import Foundation
import PushbuttonReceiver
import PushbuttonUserNotifications

#if canImport(UIKit)
    import UIKit
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

@main
final class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    let chatter = ChatterAppDelegate()

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        chatter.application(application, didFinishLaunchingWithOptions: launchOptions)
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        chatter.application(application, didRegisterForRemoteNotificationsWithDeviceToken: deviceToken)
    }
}
