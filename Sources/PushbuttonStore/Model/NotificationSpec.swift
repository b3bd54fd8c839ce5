import Foundation

/// A notification or campaign as accepted: its id, app and the APNs headers every recipient gets.
public struct NotificationSpec: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case notification
        case campaign
    }

    public var id: String
    public var app: String
    public var kind: Kind
    public var topic: String
    /// `apns-push-type`.
    public var pushType: String
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?
    public var createdAt: Date
    /// What the request asked for (audience, category, template), kept for reading back; JSON.
    public var request: [UInt8]
    /// When its recipients are due (`send_at`); `nil`: at once.
    public var sendAt: Date?
    /// A campaign's rate, recipients a minute across every process (`throttle_per_minute`); `nil`: unlimited.
    public var throttlePerMinute: Int?
    /// The app's frequency cap, when it has one: this notification's sends count toward it.
    public var frequencyCap: FrequencyCap?
    /// Whether recipients over ``frequencyCap`` are skipped (a campaign's; a single notification's only when it
    /// opts in with `"frequency_cap": true`): otherwise its sends only count.
    public var heldToFrequencyCap = false

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
