import Foundation
import Pushbutton

/// That a notification was received by the device (its service extension ran), as the device reports it to
/// Pushbutton's gateway (`POST /v1/apps/{app}/receipts`): which notification (the payload's `pushbutton.id`,
/// `pushbutton.campaign` and `pushbutton.variant`), on which device, when. Nothing of the notification's content.
///
/// ``eventID`` is derived from the token and the notification id, never random: the same notification received
/// again (the extension run twice, or killed after recording it) is the same receipt, and the gateway counts it once.
public struct DisplayReceipt: Sendable, Hashable {
    /// The receipt's id (see ``eventID(token:notificationID:)``).
    public var eventID: String
    /// The APNs device token, lowercase hex.
    public var token: String
    /// The payload's `pushbutton.id`.
    public var notificationID: String
    /// The payload's `pushbutton.campaign`, when there is one.
    public var campaignID: String?
    /// The payload's `pushbutton.variant`, when there is one.
    public var variant: String?
    /// When the extension received it.
    public var receivedAt: Date

    /// A receipt with every field given; its id derived from the token and the notification id.
    public init(
        token: String, notificationID: String, campaignID: String? = nil, variant: String? = nil, receivedAt: Date
    ) {
        self.eventID = Self.eventID(token: token, notificationID: notificationID)
        self.token = token
        self.notificationID = notificationID
        self.campaignID = campaignID
        self.variant = variant
        self.receivedAt = receivedAt
    }

    /// The receipt for a payload, or `nil` when it carries no gateway id (a notification another server sent).
    public init?(payload: Payload, token: String, receivedAt: Date) {
        guard let actions = payload.actions, let id = actions.notificationID else { return nil }
        self.init(
            token: token, notificationID: id, campaignID: actions.campaignID,
            variant: actions.extra["variant"]?.stringValue, receivedAt: receivedAt)
    }

    /// A UUID-shaped id from the token and the notification id: one receipt per device and notification.
    public static func eventID(token: String, notificationID: String) -> String {
        let key = token.lowercased() + "\u{0}" + notificationID
        return FNV1a.uuidShaped(key, salt: "receipt")
    }

    /// The receipt as the receipts API reads it (`at` in RFC 3339, UTC, with milliseconds).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "event_id": .string(eventID), "token": .string(token), "notification": .string(notificationID),
        ]
        if let campaignID { object["campaign"] = .string(campaignID) }
        if let variant { object["variant"] = .string(variant) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        object["at"] = .string(formatter.string(from: receivedAt))
        return .object(object)
    }
}
