import Foundation

// Not UserNotifications: the shapes of UIKit's app-delegate callbacks that hand the app a completion handler
// (iOS 8/9's action callbacks, which Pushbutton's legacy path routes), with UIKit's isolation (`@MainActor`) and
// its plain, non-`@Sendable` blocks, so a Swift 6 app delegate that forwards them to Pushbutton compiles here;
// and the members the built-in actions' bridge (`UIKitSystemServices`) calls, with Apple's availability
// (developer.apple.com/documentation/uikit/uiapplication).

/// Mirrors the part of `UIApplication` the delegate callbacks and the system services name.
@available(iOS 2.0, tvOS 9.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@MainActor
open class UIApplication: NSObject {
    /// Mirrors `UIApplication.OpenExternalURLOptionsKey`.
    @available(iOS 10.0, tvOS 10.0, *)
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    private static let sharedApplication = UIApplication()

    /// The app's application object (not in app extensions).
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    open class var shared: UIApplication { sharedApplication }

    /// The URL string that opens the app's page in the Settings app (iOS 8).
    @available(iOS 8.0, *)
    public nonisolated static let openSettingsURLString = "app-settings:"

    /// The URL string that opens the app's notification settings in the Settings app (iOS 16).
    @available(iOS 16.0, tvOS 16.0, *)
    public nonisolated static let openNotificationSettingsURLString = "app-settings:notifications"

    /// The app's connected scenes (iOS 13).
    @available(iOS 13.0, tvOS 13.0, *)
    open var connectedScenes: Set<UIScene> { standInScenes }

    /// Opens `url` asynchronously; the completion handler says whether it was opened (iOS 10; not in app extensions).
    @available(iOS 10.0, tvOS 10.0, *)
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    open func open(
        _ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {
        standInOpenedURLs.append(url)
        completion?(standInOpensURLs)
    }

    // MARK: Stand-in only

    /// The scenes ``connectedScenes`` returns.
    public var standInScenes: Set<UIScene> = []
    /// The URLs passed to ``open(_:options:completionHandler:)``, in order.
    public var standInOpenedURLs: [URL] = []
    /// What ``open(_:options:completionHandler:)`` answers.
    public var standInOpensURLs = true

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
