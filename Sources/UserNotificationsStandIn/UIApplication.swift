import Foundation

// Not UserNotifications: the shapes of UIKit's app-delegate callbacks that hand the app a completion handler
// (iOS 8/9's action callbacks, which Pushbutton's legacy path routes), with UIKit's isolation (`@MainActor`) and
// its plain, non-`@Sendable` blocks, so a Swift 6 app delegate that forwards them to Pushbutton compiles here.

/// Mirrors the part of `UIApplication` the delegate callbacks name.
@MainActor
open class UIApplication: NSObject {
    /// Mirrors `UIApplication.LaunchOptionsKey`.
    public struct LaunchOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let remoteNotification = LaunchOptionsKey(
            rawValue: "UIApplicationLaunchOptionsRemoteNotificationKey")
    }

    /// Stand-in only: the system makes the application object.
    public override init() { super.init() }
}

/// Mirrors the `UIApplicationDelegate` methods Pushbutton's guide uses. Apple's are optional; here they default.
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool

    @available(
        iOS, introduced: 9.0, deprecated: 10.0,
        message: "Use UserNotifications Framework's UNUserNotificationCenterDelegate"
    )
    @available(tvOS, unavailable)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    func application(
        _ application: UIApplication, handleActionWithIdentifier identifier: String?,
        forRemoteNotification userInfo: [AnyHashable: Any], withResponseInfo responseInfo: [AnyHashable: Any],
        completionHandler: @escaping () -> Void)
}

extension UIApplicationDelegate {
    public func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool { true }

    public func application(
        _ application: UIApplication, handleActionWithIdentifier identifier: String?,
        forRemoteNotification userInfo: [AnyHashable: Any], withResponseInfo responseInfo: [AnyHashable: Any],
        completionHandler: @escaping () -> Void
    ) { completionHandler() }
}
