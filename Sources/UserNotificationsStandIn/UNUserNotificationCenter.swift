import Foundation

/// Mirrors `UNUserNotificationCenterDelegate`. Apple's methods are optional; here they have defaults.
public protocol UNUserNotificationCenterDelegate: NSObjectProtocol {
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void)
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void)
}

extension UNUserNotificationCenterDelegate {
    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping (UNNotificationPresentationOptions) -> Void
    ) { completionHandler([]) }

    public func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping () -> Void
    ) { completionHandler() }
}

/// Mirrors `UNUserNotificationCenter`: the members Pushbutton's bridge calls, with Apple's signatures.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    private struct State {
        var categories = Set<UNNotificationCategory>()
        var requests: [UNNotificationRequest] = []
        var removedDelivered: [String] = []
        var grants = true
        var setCategoriesCalls = 0
    }

    private let lock = NSLock()
    private var state = State()
    private weak var storedDelegate: (any UNUserNotificationCenterDelegate)?
    nonisolated(unsafe) private static let shared = UNUserNotificationCenter()

    /// Stand-in only: a fresh center for a test (apps use `current()`).
    public override init() { super.init() }

    open class func current() -> UNUserNotificationCenter { shared }

    open weak var delegate: (any UNUserNotificationCenterDelegate)? {
        get { locked { storedDelegate } }
        set { locked { storedDelegate = newValue } }
    }

    open func requestAuthorization(
        options: UNAuthorizationOptions = [], completionHandler: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        completionHandler(locked { state.grants }, nil)
    }

    open func setNotificationCategories(_ categories: Set<UNNotificationCategory>) {
        locked {
            state.categories = categories
            state.setCategoriesCalls += 1
        }
    }

    open func getNotificationCategories(completionHandler: @escaping @Sendable (Set<UNNotificationCategory>) -> Void) {
        completionHandler(locked { state.categories })
    }

    open func add(
        _ request: UNNotificationRequest,
        withCompletionHandler completionHandler: (@Sendable ((any Error)?) -> Void)? = nil
    ) {
        locked { state.requests.append(request) }
        completionHandler?(nil)
    }

    open func removePendingNotificationRequests(withIdentifiers identifiers: [String]) {
        locked { state.requests.removeAll { identifiers.contains($0.identifier) } }
    }

    open func removeDeliveredNotifications(withIdentifiers identifiers: [String]) {
        locked { state.removedDelivered += identifiers }
    }

    // MARK: Stand-in only

    /// What the user answers to `requestAuthorization`.
    public func standInSetAuthorizationAnswer(_ grants: Bool) { locked { state.grants = grants } }
    /// The pending local requests.
    public var standInPendingRequests: [UNNotificationRequest] { locked { state.requests } }
    /// How many times `setNotificationCategories` was called.
    public var standInSetCategoriesCalls: Int { locked { state.setCategoriesCalls } }
    /// The identifiers passed to `removeDeliveredNotifications`.
    public var standInRemovedDelivered: [String] { locked { state.removedDelivered } }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
