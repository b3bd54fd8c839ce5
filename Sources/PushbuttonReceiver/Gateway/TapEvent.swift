import Foundation
import Pushbutton

/// One routed response as the device reports it to Pushbutton's gateway (`POST /v1/apps/{app}/taps`):
/// which notification (the payload's `pushbutton.id` and `pushbutton.campaign`), what the user did, in which
/// situation, and how long after delivery.
///
/// ``eventID`` is derived from the response, never random: the same response routed twice (the system
/// handing it over again after the app was killed mid-way) is the same event, and the gateway counts it once.
public struct TapEvent: Sendable, Hashable {
    /// What the user did.
    public enum Response: String, Sendable, Hashable, CaseIterable {
        case button
        case body
        case dismiss
    }

    /// The event's id (see ``eventID(for:token:)``): the same id twice counts once.
    public var eventID: String
    /// The APNs device token, lowercase hex.
    public var token: String
    /// The payload's `pushbutton.id`.
    public var notificationID: String
    /// The payload's `pushbutton.campaign`, when the notification is part of a campaign.
    public var campaignID: String?
    /// The notification's category identifier.
    public var category: String
    /// What the user did.
    public var response: Response
    /// The action identifier, for ``Response/button``.
    public var button: String?
    /// Whether the response opened the app (a foreground button or the body).
    public var foreground: Bool
    /// From delivery to the response by the device's clock; `nil` when the clock went backwards.
    public var latencyMilliseconds: Int64?
    /// The typed text, only when the app opted in to sending replies.
    public var reply: String?
    /// When the user responded.
    public var respondedAt: Date
    /// The payload's `pushbutton.variant`: the experiment's variant the notification was (issue 36).
    public var variant: String?

    /// An event with every field given.
    public init(
        eventID: String, token: String, notificationID: String, campaignID: String? = nil, category: String,
        response: Response, button: String? = nil, foreground: Bool, latencyMilliseconds: Int64? = nil,
        reply: String? = nil, respondedAt: Date, variant: String? = nil
    ) {
        self.variant = variant
        self.eventID = eventID
        self.token = token
        self.notificationID = notificationID
        self.campaignID = campaignID
        self.category = category
        self.response = response
        self.button = button
        self.foreground = foreground
        self.latencyMilliseconds = latencyMilliseconds
        self.reply = reply
        self.respondedAt = respondedAt
    }

    /// The event for a routed response, or `nil` when its notification carries no gateway id (a local
    /// notification, or one another server sent): such a tap could never be joined to a send.
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
            campaignID: actions.campaignID, category: response.notification.categoryIdentifier, response: kind,
            button: kind == .button ? response.actionIdentifier : nil, foreground: situation.isForeground,
            latencyMilliseconds: milliseconds >= 0 ? Int64(milliseconds) : nil,
            reply: includeReply ? response.userText : nil, respondedAt: respondedAt,
            variant: actions.extra["variant"]?.stringValue)
    }

    /// A UUID-shaped id from the token, the notification (identifier and delivery time) and the action.
    public static func eventID(for response: NotificationResponse, token: String) -> String {
        let key =
            [
                token, response.notification.identifier,
                String(Int64((response.notification.date.timeIntervalSince1970 * 1000).rounded())),
                response.actionIdentifier,
            ].joined(separator: "\u{0}")
        let high = FNV1a.hash(Array(("tap-event-1\u{0}" + key).utf8))
        let low = FNV1a.hash(Array(("tap-event-2\u{0}" + key).utf8))
        let hex = Array(hexDigits(high) + hexDigits(low))
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(
            separator: "-")
    }

    private static func hexDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The event as the taps API reads it (`at` in RFC 3339, UTC, with milliseconds).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "event_id": .string(eventID), "token": .string(token), "notification": .string(notificationID),
            "campaign": campaignID.map(JSONValue.string) ?? .null, "category": .string(category),
            "response": .string(response.rawValue), "foreground": .bool(foreground),
            "latency_ms": latencyMilliseconds.map(JSONValue.integer) ?? .null,
        ]
        if let button { object["button"] = .string(button) }
        if let reply { object["reply"] = .string(reply) }
        if let variant { object["variant"] = .string(variant) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        object["at"] = .string(formatter.string(from: respondedAt))
        return .object(object)
    }
}
