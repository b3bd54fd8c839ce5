// Background task assertions are UIKit API of iOS (and Mac Catalyst, visionOS): elsewhere on Apple platforms this
// file is empty. On Linux it compiles against the stand-in, so it is built and tested here.
#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import PushbuttonReceiver

    #if canImport(UIKit)
        import UIKit
    #else
        import UserNotificationsStandIn
    #endif

    /// A ``BackgroundWindow`` over `UIApplication.shared.beginBackgroundTask(withName:expirationHandler:)`: the
    /// app keeps running for the work even if the user leaves it, and the work is told to stop before iOS
    /// suspends the app. Give it to `ImmediateDelivery` (PushbuttonOutbox). Not for app extensions.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public struct UIKitBackgroundWindow: BackgroundWindow {
        /// Background task assertions on `UIApplication.shared`.
        public init() {}

        /// Begins a background task named `name`; its expiration handler (on the main actor) calls `expiring`.
        @MainActor
        public func begin(_ name: String, expiring: @escaping @Sendable () -> Void) -> Int? {
            let identifier = UIApplication.shared.beginBackgroundTask(withName: name) { expiring() }
            return identifier == .invalid ? nil : identifier.rawValue
        }

        /// Ends the background task.
        @MainActor
        public func end(_ window: Int) {
            UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: window))
        }
    }
#endif
