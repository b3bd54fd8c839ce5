/// What the user did with a notification.
public struct NotificationResponse: Sendable, Hashable {
    public var notification: DeliveredNotification
    /// The tapped button's identifier, or the system's default (body tap) or dismiss identifier.
    public var actionIdentifier: String
    /// The text typed into a text-input action, if any.
    public var userText: String?

    public init(notification: DeliveredNotification, actionIdentifier: String, userText: String? = nil) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }
}
