import Foundation
import Pushbutton

extension TapEvent {
    /// The event for a routed response, or `nil` when its notification carries no gateway id (a local
    /// notification, or one another server sent): such a tap could never be joined to a send.
    ///
    /// - Parameters:
    ///   - token: The device token the app registered, lowercase hex.
    ///   - includeReply: Whether the typed text goes with it (the app's opt-in).
    public init?(
        response: NotificationResponse, situation: Situation, token: String, respondedAt: Date, includeReply: Bool
    ) {
        guard let actions = response.notification.payload?.actions, let id = actions.notificationID else { return nil }
        let kind: Response
        switch situation {
        case .bodyTap: kind = .body
        case .dismiss: kind = .dismiss
        case .foregroundButton, .backgroundButton, .manual: kind = .button
        }
        let milliseconds = (respondedAt.timeIntervalSince(response.notification.date) * 1000).rounded()
        self.init(
            eventID: Self.eventID(for: response, token: token), token: token, notificationID: id,
            campaignID: actions.campaignID, variant: Self.variant(of: actions),
            category: response.notification.categoryIdentifier, response: kind,
            button: kind == .button ? response.actionIdentifier : nil, foreground: situation.isForeground,
            latencyMilliseconds: milliseconds >= 0 ? Int64(milliseconds) : nil,
            reply: includeReply ? response.userText : nil, respondedAt: respondedAt)
    }

    /// The payload's `pushbutton.variant`, passed through as is: the experiment variant the gateway sent this device.
    static func variant(of actions: PayloadActions) -> String? { actions.extra["variant"]?.stringValue }

    /// A UUID-shaped id from the token, the notification (identifier and delivery time) and the action.
    public static func eventID(for response: NotificationResponse, token: String) -> String {
        let key =
            [
                token, response.notification.identifier,
                String(Int64((response.notification.date.timeIntervalSince1970 * 1000).rounded())),
                response.actionIdentifier,
            ].joined(separator: "\u{0}")
        return FNV1a.uuidShaped(key, salt: "tap-event")
    }

}
