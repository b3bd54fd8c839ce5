import Pushbutton

/// A notification the app schedules itself.
public struct LocalNotificationRequest: Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var body: String
    /// The category whose buttons the notification shows.
    public var categoryIdentifier: String
    public var userInfo: [String: JSONValue]
    /// How long after scheduling it fires (`nil`: when the simulator is told to fire it).
    public var delay: Duration?

    public init(
        identifier: String, title: String = "", body: String, categoryIdentifier: String = "",
        userInfo: [String: JSONValue] = [:], delay: Duration? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.body = body
        self.categoryIdentifier = categoryIdentifier
        self.userInfo = userInfo
        self.delay = delay
    }
}
