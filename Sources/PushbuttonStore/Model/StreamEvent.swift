import Foundation
import Pushbutton

/// One event of the event stream (issue 35: the warehouse feed), as claimed from the store: its row id, its
/// type, the app, when it happened, and its fields as the stream sends them.
public struct StreamEvent: Sendable, Hashable {
    /// The types the stream carries.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// APNs accepted the notification for the device (HTTP 200).
        case sent = "notification.sent"
        /// The notification was displayed on the device: its service extension's display receipt arrived (one per
        /// notification and device, however often it is reported).
        case delivered = "notification.delivered"
        /// APNs refused it for good (a 4xx other than a retry).
        case rejected = "notification.rejected"
        /// Its retries ran out without an answer APNs gave for good.
        case failed = "notification.failed"
        /// APNs answered 410: the device's token is dead.
        case deviceUnregistered = "device.unregistered"
        /// A device reported a response (a button, the body, a dismissal).
        case tap
        /// A campaign's last queued recipient got its outcome (the first time its queue emptied).
        case campaignFinished = "campaign.finished"
    }

    /// The row id, by which a claimed event is finished.
    public var rowID: Int64
    /// The event's id for the receiver's idempotency, the same on every delivery of it.
    public var id: String
    /// What happened.
    public var kind: Kind
    /// The app.
    public var app: String
    /// When (by the gateway's clock).
    public var at: Date
    /// The type's fields (`token`, `notification_id`, `status`…), beside `id`, `type`, `at` and `app`.
    public var fields: [String: JSONValue]

    /// An event as the store reads it back.
    public init(rowID: Int64, id: String, kind: Kind, app: String, at: Date, fields: [String: JSONValue]) {
        self.rowID = rowID
        self.id = id
        self.kind = kind
        self.app = app
        self.at = at
        self.fields = fields
    }
}
