import Foundation
import PushbuttonSupport

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

    /// The app delegate. Checked against `UIApplication.delegate` (developer.apple.com, UIApplication.h): iOS 2,
    /// held weakly (`unowned(unsafe)` in Objective-C).
    open weak var delegate: (any UIApplicationDelegate)?

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

    /// Registers with APNs; the delegate then gets `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
    /// or `application(_:didFailToRegisterForRemoteNotificationsWithError:)`.
    ///
    /// Checked against `UIApplication.registerForRemoteNotifications()` (developer.apple.com/documentation/uikit/
    /// uiapplication/registerforremotenotifications(), UIApplication.h): iOS 8, main actor (the class is).
    @available(iOS 8.0, tvOS 9.0, *)
    open func registerForRemoteNotifications() { standInRemoteRegistrations += 1 }

    /// Marks the start of work that should go on if the app is suspended; returns `.invalid` when it cannot.
    ///
    /// Checked against `beginBackgroundTask(withName:expirationHandler:)` (developer.apple.com/documentation/uikit/
    /// uiapplication, UIApplication.h): iOS 7, `nonisolated`, handler `(@MainActor @Sendable () -> Void)? = nil`.
    @available(iOS 7.0, tvOS 9.0, *)
    nonisolated open func beginBackgroundTask(
        withName taskName: String?, expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        standInBackgroundTasks.withLock { tasks in
            let identifier = UIBackgroundTaskIdentifier(rawValue: tasks.next)
            tasks.next += 1
            tasks.open[identifier.rawValue] = (taskName, handler)
            return identifier
        }
    }

    /// Marks the end of the background task `identifier`.
    ///
    /// Checked against `endBackgroundTask(_:)` (developer.apple.com, UIApplication.h): iOS 4, `nonisolated`.
    @available(iOS 4.0, tvOS 9.0, *)
    nonisolated open func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        standInBackgroundTasks.withLock { tasks in
            if tasks.open.removeValue(forKey: identifier.rawValue) != nil { tasks.ended.append(identifier.rawValue) }
        }
    }

    // MARK: Stand-in only

    /// How many times ``registerForRemoteNotifications()`` was called.
    public var standInRemoteRegistrations = 0

    /// Background tasks begun and not ended, and those ended, in order.
    private nonisolated let standInBackgroundTasks = Locked(
        StandInBackgroundTasks(next: 1, open: [:], ended: []))

    /// The names of the background tasks begun and not yet ended.
    public nonisolated var standInOpenBackgroundTasks: [String?] {
        standInBackgroundTasks.withLock { $0.open.sorted { $0.key < $1.key }.map(\.value.name) }
    }

    /// The identifiers of the background tasks ended, in order.
    public nonisolated var standInEndedBackgroundTasks: [Int] { standInBackgroundTasks.withLock { $0.ended } }

    /// The system is about to suspend the app: calls the expiration handler of every open background task.
    public func standInExpireBackgroundTasks() {
        let handlers = standInBackgroundTasks.withLock { $0.open.values.compactMap(\.handler) }
        for handler in handlers { handler() }
    }

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

/// Stand-in only: the background tasks ``UIApplication`` has begun.
struct StandInBackgroundTasks: Sendable {
    var next: Int
    var open: [Int: (name: String?, handler: (@MainActor @Sendable () -> Void)?)]
    var ended: [Int]
}

/// Mirrors `UIBackgroundTaskIdentifier` (developer.apple.com/documentation/uikit/uibackgroundtaskidentifier).
@available(iOS 4.0, tvOS 9.0, *)
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Checked against `UIBackgroundTaskIdentifier.invalid` (UIApplication.h).
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}

/// Mirrors the `UIApplicationDelegate` methods Pushbutton's guide uses. Apple's are optional; here they default.
@MainActor
public protocol UIApplicationDelegate: NSObjectProtocol {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool

    /// Checked against `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` (developer.apple.com,
    /// UIApplication.h): iOS 3, main actor.
    @available(iOS 3.0, tvOS 9.0, *)
    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)

    /// Checked against `application(_:didFailToRegisterForRemoteNotificationsWithError:)` (developer.apple.com,
    /// UIApplication.h): iOS 3, main actor.
    @available(iOS 3.0, tvOS 9.0, *)
    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error)

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
        _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
    ) {}

    public func application(
        _ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error
    ) {}

    public func application(
        _ application: UIApplication, handleActionWithIdentifier identifier: String?,
        forRemoteNotification userInfo: [AnyHashable: Any], withResponseInfo responseInfo: [AnyHashable: Any],
        completionHandler: @escaping () -> Void
    ) { completionHandler() }
}

extension UIApplicationDelegate {
    /// Mirrors the entry point UIKit gives an app delegate marked `@main` (it calls `UIApplicationMain`, which
    /// makes the delegate and runs the app). Checked against developer.apple.com/documentation/uikit/
    /// uiapplicationdelegate (UIKit's `UIApplicationDelegate.main()` extension, iOS 14). There is no app to run
    /// on Linux: the stand-in's entry point returns at once, so `@main` app delegates compile here.
    @available(iOS 14.0, tvOS 14.0, *)
    public static func main() {}
}
