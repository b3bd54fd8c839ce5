import Pushbutton

/// What the app needs from the system's notification center.
///
/// `SimulatedNotificationCenter` (PushbuttonReceiverTesting) implements it for tests and the command line; the
/// `PushbuttonUserNotifications` module implements it over `UNUserNotificationCenter`.
public protocol UserNotificationCenter: Sendable {
    /// Asks the user for permission; `true` when granted.
    func requestAuthorization(options: AuthorizationOptions) async throws -> Bool
    /// The categories registered now.
    func notificationCategories() async -> [Pushbutton.Category]
    /// Replaces **all** registered categories (as iOS does): use ``CategoryRegistrar`` to merge instead.
    func setNotificationCategories(_ categories: [Pushbutton.Category]) async
    /// Schedules a local notification.
    func add(_ request: LocalNotificationRequest) async throws
    /// Cancels scheduled local notifications.
    func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async
    /// Removes delivered notifications from the notification center.
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async
    /// Sets who receives the user's responses.
    func setResponseHandler(_ handler: (any NotificationResponseHandler)?) async
    /// `category` as ``notificationCategories()`` returns it once registered. The system keeps titles as plain
    /// strings in one language and cannot give icons back, so a category read back differs from the manifest's
    /// even when it is the same registration; ``CategoryRegistrar`` compares in this form.
    func registeredForm(of category: Pushbutton.Category) -> Pushbutton.Category
    /// The store of categories this center writes to, when several center objects can share one (as several
    /// bridges over the same `UNUserNotificationCenter` do): ``CategoryRegistrar``s serialize their
    /// registrations per store. `nil` (the default) makes the center object itself the store.
    var categoryStore: ObjectIdentifier? { get }
}

extension UserNotificationCenter {
    public var categoryStore: ObjectIdentifier? { nil }

    /// A center that stores categories as given reads them back unchanged.
    public func registeredForm(of category: Pushbutton.Category) -> Pushbutton.Category { category }
}
