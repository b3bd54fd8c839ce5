import Foundation

/// A notification or campaign as accepted: its id, app and the APNs headers every recipient gets.
public struct NotificationSpec: Sendable, Hashable {
    /// Whether it is one notification sent at once or a campaign whose recipients arrive in pages.
    public enum Kind: String, Sendable, Hashable {
        case notification
        case campaign
    }

    /// The gateway's id, which payloads carry as `pushbutton.id` so taps join to it.
    public var id: String
    /// The app it was sent for.
    public var app: String
    /// Notification or campaign.
    public var kind: Kind
    /// The `apns-topic` header: the app's bundle id, suffixed for some push types.
    public var topic: String
    /// `apns-push-type`.
    public var pushType: String
    /// The `apns-priority` header: 10 immediate, 5 power-saving (required for background pushes); `nil` leaves it
    /// to APNs.
    public var priority: Int?
    /// The `apns-expiration` header, epoch seconds (0: don't store if the device is offline); `nil` leaves it out.
    public var expiration: Int64?
    /// The `apns-collapse-id` header (at most 64 bytes): a newer notification with the same id replaces the
    /// older one on the device.
    public var collapseID: String?
    /// When the gateway accepted it.
    public var createdAt: Date
    /// What the request asked for (audience, category, template), kept for reading back; JSON.
    public var request: [UInt8]
    /// When its recipients are due (`send_at`); `nil`: at once.
    public var sendAt: Date?
    /// A campaign's rate, recipients a minute across every process (`throttle_per_minute`); `nil`: unlimited.
    public var throttlePerMinute: Int?
    /// Whether a request waits for its outcomes (`"wait_seconds"`): on PostgreSQL the process that records them
    /// then tells the others (a `NOTIFY`), so a request waiting in another process wakes; others cost nothing.
    public var wakesWaiters = false
    /// The app's frequency cap, when it has one: this notification's sends count toward it.
    public var frequencyCap: FrequencyCap?
    /// Whether recipients over ``frequencyCap`` are skipped (a campaign's; a single notification's only when it
    /// opts in with `"frequency_cap": true`): otherwise its sends only count.
    public var heldToFrequencyCap = false
    /// Quiet hours its recipients are held by (a campaign's unless `ignore_quiet_hours`; a single notification's
    /// only when it asks), re-checked when a lease takes each recipient; `nil`: never held.
    public var quietHours: QuietHoursHold?

    /// A notification or campaign with its headers; ``sendAt`` and ``throttlePerMinute`` are set afterwards.
    public init(
        id: String, app: String, kind: Kind, topic: String, pushType: String = "alert", priority: Int? = nil,
        expiration: Int64? = nil, collapseID: String? = nil, createdAt: Date, request: [UInt8] = []
    ) {
        self.id = id
        self.app = app
        self.kind = kind
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.createdAt = createdAt
        self.request = request
    }

    /// A spec with its send time and rate (issue 35's "when").
    public init(
        id: String, app: String, kind: Kind, topic: String, pushType: String = "alert", priority: Int? = nil,
        expiration: Int64? = nil, collapseID: String? = nil, createdAt: Date, request: [UInt8] = [],
        sendAt: Date?, throttlePerMinute: Int? = nil
    ) {
        self.init(
            id: id, app: app, kind: kind, topic: topic, pushType: pushType, priority: priority,
            expiration: expiration, collapseID: collapseID, createdAt: createdAt, request: request)
        self.sendAt = sendAt
        self.throttlePerMinute = throttlePerMinute
    }
}
