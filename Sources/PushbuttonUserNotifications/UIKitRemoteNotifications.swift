// Registering with APNs through UIApplication is UIKit API of iOS (and Mac Catalyst, visionOS): elsewhere on Apple
// platforms this file is empty. On Linux it compiles against the stand-in, so it is built and tested here.
#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import PushbuttonReceiver

    #if canImport(UIKit)
        import UIKit
    #else
        import UserNotificationsStandIn
    #endif

    /// Asks APNs for a device token with `UIApplication.shared.registerForRemoteNotifications()`; the token reaches
    /// the app delegate's `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` (a SwiftUI app's
    /// through its `@UIApplicationDelegateAdaptor`). Not for app extensions, which have no `UIApplication.shared`.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public struct UIKitRemoteNotifications: RemoteNotificationRegistration {
        /// Registers through `UIApplication.shared`.
        public init() {}

        /// Calls `UIApplication.shared.registerForRemoteNotifications()`.
        @MainActor
        public func registerForRemoteNotifications() {
            UIApplication.shared.registerForRemoteNotifications()
        }
    }
#endif
