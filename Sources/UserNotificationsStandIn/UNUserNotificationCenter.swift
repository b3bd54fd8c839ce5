import Foundation
import PushbuttonSupport

/// Mirrors `UNUserNotificationCenterDelegate`. Apple's methods are optional; here they have defaults that do
/// what the system does when a delegate lacks the method (present nothing, finish at once, open nothing).
///
/// Checked against Apple's documentation of the current SDK (developer.apple.com/documentation/usernotifications/
/// unusernotificationcenterdelegate, the Swift declarations generated from UNUserNotificationCenter.h): the
/// protocol is not actor-isolated (its methods are called on a background queue), and both completion handlers
/// are `@escaping @Sendable`. SDKs before Xcode 16 declared them without `@Sendable`; a `@Sendable` handler is
/// accepted where a plain one is asked for, so code written against this one compiles against both.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    /// Checked against `userNotificationCenter(_:willPresent:withCompletionHandler:)` (developer.apple.com,
    /// UNUserNotificationCenter.h): `@escaping @Sendable (UNNotificationPresentationOptions) -> Void`.
    @available(iOS 10, macOS 10.14, watchOS 3, tvOS 10, *)
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void)
    /// Checked against `userNotificationCenter(_:didReceive:withCompletionHandler:)` (developer.apple.com,
    /// UNUserNotificationCenter.h): `@escaping @Sendable () -> Void`; unavailable on tvOS.
    @available(iOS 10, macOS 10.14, watchOS 3, *)
    @available(tvOS, unavailable)
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void)
    /// Checked against `userNotificationCenter(_:openSettingsFor:)` (developer.apple.com, UNUserNotificationCenter.h):
    /// iOS 12, macOS 10.14; unavailable on watchOS and tvOS.
    @available(iOS 12, macOS 10.14, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) { completionHandler([]) }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) { completionHandler() }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?
    ) {}
}

/// Mirrors `UNUserNotificationCenter`: the members Pushbutton's bridge calls, with Apple's signatures.
@available(iOS 10, macOS 10.14, watchOS 3, tvOS 10, *)
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private struct State {
        var categories = Set<UNNotificationCategory>()
        var requests: [UNNotificationRequest] = []
        var removedDelivered: [String] = []
        var grants = true
        var authorizationRequests: [UNAuthorizationOptions] = []
        var categoryCalls: [String] = []
        var setCategoriesCalls = 0
        var holdsCategoryReads = false
        var heldReads: [@Sendable (Set<UNNotificationCategory>) -> Void] = []
        weak var delegate: (any UNUserNotificationCenterDelegate)?
    }

    private let state = Locked(State())
    private static let shared = UNUserNotificationCenter()

    /// Stand-in only: a fresh center for a test (apps use `current()`).
    public override init() { super.init() }

    /// Checked against `UNUserNotificationCenter.current()` (developer.apple.com, UNUserNotificationCenter.h).
    open class func current() -> UNUserNotificationCenter { shared }

    /// Checked against `UNUserNotificationCenter.delegate` (developer.apple.com, UNUserNotificationCenter.h): weak.
    open weak var delegate: (any UNUserNotificationCenterDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Checked against `requestAuthorization(options:completionHandler:)` (developer.apple.com,
    /// UNUserNotificationCenter.h): `@escaping @Sendable (Bool, (any Error)?) -> Void`.
    open func requestAuthorization(
        options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        let grants = state.withLock { state in
            state.authorizationRequests.append(options)
            return state.grants
        }
        completionHandler(grants, nil)
    }

    /// Checked against `setNotificationCategories(_:)` (developer.apple.com, UNUserNotificationCenter.h).
    @available(tvOS, unavailable)
    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        state.withLock { state in
            state.categories = categories
            state.setCategoriesCalls += 1
            state.categoryCalls.append("set")
        }
    }

    /// Checked against `getNotificationCategories(completionHandler:)` (developer.apple.com,
    /// UNUserNotificationCenter.h): `@escaping @Sendable (Set<UNNotificationCategory>) -> Void`.
    @available(tvOS, unavailable)
    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        let answer: Set<UNNotificationCategory>? = state.withLock { state in
            state.categoryCalls.append("get")
            if state.holdsCategoryReads {
                state.heldReads.append(completionHandler)
                return nil
            }
            return state.categories
        }
        if let answer { completionHandler(answer) }
    }

    /// Checked against `add(_:withCompletionHandler:)` (developer.apple.com, UNUserNotificationCenter.h):
    /// `(@Sendable ((any Error)?) -> Void)? = nil`.
    ///
    /// Adds a request. As on Apple's platforms, `userInfo` must hold property-list values only (Apple's raises an
    /// exception when it cannot encode one; the stand-in reports an error instead, so a test sees it).
    open func add(
        _ request: UNNotificationRequest,
        withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        if let path = Self.standInFirstNonPropertyList(in: request.content.userInfo, at: "userInfo") {
            completionHandler?(StandInError(message: "\(path) is not a property-list value"))
            return
        }
        state.withLock { $0.requests.append(request) }
        completionHandler?(nil)
    }

    /// Checked against `removePendingNotificationRequests(withIdentifiers:)` (developer.apple.com).
    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        state.withLock { $0.requests.removeAll { identifiers.contains($0.identifier) } }
    }

    /// Checked against `removeDeliveredNotifications(withIdentifiers:)` (developer.apple.com); unavailable on tvOS.
    @available(tvOS, unavailable)
    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        state.withLock { $0.removedDelivered += identifiers }
    }

    // MARK: Stand-in only

    /// What the user answers to `requestAuthorization`.
    public func standInSetAuthorizationAnswer(_ grants: Bool) { state.withLock { $0.grants = grants } }
    /// The options of every `requestAuthorization` call, in order.
    public var standInAuthorizationRequests: [UNAuthorizationOptions] { state.withLock { $0.authorizationRequests } }
    /// The pending local requests.
    public var standInPendingRequests: [UNNotificationRequest] { state.withLock { $0.requests } }
    /// The category calls made, in order: `set` for `setNotificationCategories`, `get` for
    /// `getNotificationCategories`.
    public var standInCategoryCalls: [String] { state.withLock { $0.categoryCalls } }
    /// How many times `setNotificationCategories` was called.
    public var standInSetCategoriesCalls: Int { state.withLock { $0.setCategoriesCalls } }
    /// The identifiers passed to `removeDeliveredNotifications`.
    public var standInRemovedDelivered: [String] { state.withLock { $0.removedDelivered } }
    /// The registered categories, without going through the asynchronous getter.
    public var standInCategories: Set<UNNotificationCategory> { state.withLock { $0.categories } }

    /// Makes `getNotificationCategories` wait (a system slow to answer) until ``standInReleaseCategoryReads()``.
    public func standInHoldCategoryReads() { state.withLock { $0.holdsCategoryReads = true } }

    /// Answers every held `getNotificationCategories` and stops holding.
    public func standInReleaseCategoryReads() {
        let (held, categories) = state.withLock { state in
            state.holdsCategoryReads = false
            defer { state.heldReads = [] }
            return (state.heldReads, state.categories)
        }
        for reply in held { reply(categories) }
    }

    /// The system presents `notification` while the app is in the foreground: asks the delegate how, and returns
    /// its answer (`nil` when there is no delegate, and the notification is not presented).
    public func standInWillPresent(_ notification: UNNotification) async -> UNNotificationPresentationOptions? {
        guard let delegate else { return nil }
        return await withCheckedContinuation { continuation in
            delegate.userNotificationCenter(self, willPresent: notification) { continuation.resume(returning: $0) }
        }
    }

    /// The user asks for the app's notification settings (from Settings, or from a notification).
    public func standInOpenSettings(for notification: UNNotification?) {
        delegate?.userNotificationCenter(self, openSettingsFor: notification)
    }

    /// The path of the first value in `value` that is not a property-list type (`NSNull` is not), or `nil`.
    public static func standInFirstNonPropertyList(in value: Any, at path: String) -> String? {
        switch value {
        case is String, is Data, is Date, is Bool, is Int, is Int64, is Int32, is Double, is Float, is NSNumber:
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = standInFirstNonPropertyList(in: element, at: "\(path)[\(index)]") { return found }
            }
            return nil
        case let dictionary as [AnyHashable: Any]:
            for (key, element) in dictionary {
                guard let key = key.base as? String else { return "\(path) (a key that is not a string)" }
                if let found = standInFirstNonPropertyList(in: element, at: "\(path).\(key)") { return found }
            }
            return nil
        default:
            return path
        }
    }
}

/// Stand-in only: an error the stand-in reports where Apple's framework would fail.
public struct StandInError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
