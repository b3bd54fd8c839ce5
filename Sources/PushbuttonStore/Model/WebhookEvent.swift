import Foundation

/// A dead token or a final failure to tell the app's backend about, queued in the store in the same
/// transaction as the outcome it reports, so a crash cannot record the one without the other.
public struct WebhookEvent: Sendable, Hashable {
    /// The kinds of event.
    public enum Kind: String, Sendable, Hashable {
        /// APNs answered 410: the device is inactive since ``WebhookEvent/unregisteredAt``.
        case deviceUnregistered = "device.unregistered"
        /// APNs refused it for good, or its retries ran out.
        case notificationFailed = "notification.failed"
    }

    /// The recipient's row id (one event per recipient at most).
    public var id: Int64
    /// What happened.
    public var kind: Kind
    /// The app the recipient belongs to.
    public var app: String
    /// The device token (hex).
    public var token: String
    /// The notification (or campaign) the recipient was part of.
    public var notificationID: String
    /// The recipient's `apns-id`; with the kind, the event's idempotency key.
    public var apnsID: String
    /// APNs' status; `nil` when no answer came (retries ran out on transport errors).
    public var status: Int?
    /// APNs' reason, or the last cause when retries ran out.
    public var reason: String?
    /// APNs attempts made.
    public var attempts: Int
    /// For a 410: APNs' timestamp, or the outcome's time when APNs gave none.
    public var unregisteredAt: Date?
    /// When the outcome was recorded (by the gateway's clock).
    public var at: Date

    /// An event as the store reads it back.
    public init(
        id: Int64, kind: Kind, app: String, token: String, notificationID: String, apnsID: String, status: Int?,
        reason: String?, attempts: Int, unregisteredAt: Date?, at: Date
    ) {
        self.id = id
        self.kind = kind
        self.app = app
        self.token = token
        self.notificationID = notificationID
        self.apnsID = apnsID
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.unregisteredAt = unregisteredAt
        self.at = at
    }
}
