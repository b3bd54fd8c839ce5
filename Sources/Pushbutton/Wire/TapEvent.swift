import Foundation

/// One response to a notification as a device reports it to Pushbutton's gateway (an element of
/// `POST /v1/apps/{app}/taps`'s `taps`): which notification (the payload's `pushbutton.id`, `pushbutton.campaign`
/// and `pushbutton.variant`), what the user did, whether it opened the app, and how long after delivery.
///
/// The one definition of the wire message: the device writes it with ``jsonValue`` (`PushbuttonReceiver` builds it
/// from a routed response), the gateway reads it with ``read(_:at:diagnostics:)`` and stores it inside a
/// `TapRecord`. ``eventID`` is derived from the response, never random: the same response reported twice (the system
/// handing it over again after the app was killed mid-way) is the same event, and the gateway counts it once.
public struct TapEvent: Sendable, Hashable {
    /// What the user did.
    public enum Response: String, Sendable, Hashable, CaseIterable {
        /// Tapped one of the category's buttons (``TapEvent/button`` says which).
        case button
        /// Tapped the notification itself.
        case body
        /// Dismissed it (reported only by categories with `customDismissAction`).
        case dismiss
    }

    /// The device's id for the event (`event_id`): the same id twice is one event.
    public var eventID: String
    /// The APNs device token, lowercase hex.
    public var token: String
    /// The payload's `pushbutton.id` (`notification`): the gateway's id of the send the tap answers.
    public var notificationID: String
    /// The payload's `pushbutton.campaign` (`campaign`); `nil` for a notification outside a campaign.
    public var campaignID: String?
    /// The payload's `pushbutton.variant` (`variant`): which variant of an experiment the device got; `nil` outside
    /// an experiment.
    public var variant: String?
    /// The notification's category identifier, as the device saw it (may be empty for a category-less one).
    public var category: String
    /// What the user did.
    public var response: Response
    /// The action identifier, only for ``Response/button``.
    public var button: String?
    /// Whether the response opened the app (a foreground button or the body).
    public var foreground: Bool
    /// From delivery to the response, in milliseconds by the device's clock (`latency_ms`); `nil` when unknown or
    /// when the clock went backwards.
    public var latencyMilliseconds: Int64?
    /// The typed text of a text-input action, only when the app opted in to sending replies.
    public var reply: String?
    /// When the user responded (`at`, RFC 3339 in UTC with milliseconds on the wire).
    public var respondedAt: Date

    /// An event with every field given.
    public init(
        eventID: String, token: String, notificationID: String, campaignID: String? = nil, variant: String? = nil,
        category: String, response: Response, button: String? = nil, foreground: Bool,
        latencyMilliseconds: Int64? = nil, reply: String? = nil, respondedAt: Date
    ) {
        self.eventID = eventID
        self.token = token
        self.notificationID = notificationID
        self.campaignID = campaignID
        self.variant = variant
        self.category = category
        self.response = response
        self.button = button
        self.foreground = foreground
        self.latencyMilliseconds = latencyMilliseconds
        self.reply = reply
        self.respondedAt = respondedAt
    }
}
