import Foundation

/// One display receipt a device reported (`POST /v1/apps/{app}/receipts`): the notification was received by it.
public struct ReceiptRecord: Sendable, Hashable {
    /// The app the receipt was reported to.
    public var app: String
    /// The device's id for the receipt: the same id twice is one receipt.
    public var eventID: String
    /// The device token, lowercase hex.
    public var token: String
    /// The notification id from the payload's `pushbutton.id`.
    public var notificationID: String
    /// The payload's `pushbutton.campaign`, when there is one.
    public var campaignID: String?
    /// The payload's `pushbutton.variant`, when there is one.
    public var variant: String?
    /// When the device received it, by its clock.
    public var receivedAt: Date

    /// A receipt with every field given.
    public init(
        app: String, eventID: String, token: String, notificationID: String, campaignID: String? = nil,
        variant: String? = nil, receivedAt: Date
    ) {
        self.app = app
        self.eventID = eventID
        self.token = token
        self.notificationID = notificationID
        self.campaignID = campaignID
        self.variant = variant
        self.receivedAt = receivedAt
    }
}
