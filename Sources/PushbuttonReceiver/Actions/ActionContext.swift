import Pushbutton

/// What an app-defined action receives.
public struct ActionContext: Sendable {
    /// The action's identifier as registered.
    public var identifier: String
    /// Its arguments: from the payload's per-button actions, or its `action_args`.
    public var arguments: [String: JSONValue]
    public var situation: Situation
    /// The notification it came from (`nil` when performed manually without one).
    public var notification: DeliveredNotification?
    /// The text typed into a text-input action.
    public var replyText: String?

    public init(
        identifier: String, arguments: [String: JSONValue] = [:], situation: Situation,
        notification: DeliveredNotification? = nil, replyText: String? = nil
    ) {
        self.identifier = identifier
        self.arguments = arguments
        self.situation = situation
        self.notification = notification
        self.replyText = replyText
    }
}
