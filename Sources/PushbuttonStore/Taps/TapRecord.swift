import Foundation

/// One response a device reported (`POST /v1/apps/{app}/taps`), as stored: joined to its notification by
/// ``notificationID`` when the stats are read, not when it is stored.
public struct TapRecord: Sendable, Hashable {
    /// What the user did.
    public enum Response: String, Sendable, Hashable, CaseIterable {
        /// Tapped one of the category's buttons (``TapRecord/button`` says which).
        case button
        /// Tapped the notification itself.
        case body
        /// Dismissed it (reported only by categories with `customDismissAction`).
        case dismiss
    }

    /// The app the event was reported to.
    public var app: String
    /// The device's id for the event: the same id twice is one event.
    public var eventID: String
    /// The device token, lowercase hex.
    public var token: String
    /// The notification id from the payload's `pushbutton.id`.
    public var notificationID: String
    /// The payload's `pushbutton.campaign`, when there is one.
    public var campaignID: String?
    /// The notification's category identifier, as the device reported it.
    public var category: String
    /// What the user did.
    public var response: Response
    /// The action identifier, when ``response`` is ``Response/button``.
    public var button: String?
    /// Whether the response opened the app.
    public var foreground: Bool
    /// From delivery to the response, by the device's clock; `nil` when unknown.
    public var latencyMilliseconds: Int64?
    /// The typed text, only when the app opted in.
    public var reply: String?
    /// When the user responded.
    public var respondedAt: Date
    /// The payload's `pushbutton.variant`, when the notification was a variant of an experiment.
    public var variant: String?

    /// An event with every field given.
    public init(
        app: String, eventID: String, token: String, notificationID: String, campaignID: String? = nil,
        category: String, response: Response, button: String? = nil, foreground: Bool,
        latencyMilliseconds: Int64? = nil, reply: String? = nil, respondedAt: Date, variant: String? = nil
    ) {
        self.variant = variant
        self.app = app
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
}
