import Foundation
import Pushbutton
import PushbuttonSupport

/// One notification to send: a device, a payload, and the APNs headers.
public struct APNsNotification: Sendable, Hashable {
    /// The device to deliver to (its token, from the app's registration).
    public var deviceToken: DeviceToken
    /// The payload's JSON bytes (write them with `PayloadWriter` or a `PayloadTemplate`).
    public var payload: [UInt8]
    /// `apns-topic`: the bundle identifier (suffixed for some push types, e.g. `.voip`).
    public var topic: String
    /// `apns-push-type`: `alert`, `background`, `voip`, `liveactivity`, …; it sets the topic suffix, the
    /// priority APNs accepts and the payload limit.
    public var pushType: PushType
    /// `apns-priority`: 10 (now), 5 (power-saving; required for background pushes) or 1.
    public var priority: Int?
    /// `apns-expiration` in epoch seconds; 0 means deliver once or not at all.
    public var expiration: Int64?
    /// `apns-collapse-id` (at most 64 bytes).
    public var collapseID: String?
    /// `apns-id`: kept across retries, so APNs and the device can tell a retry from a new notification.
    public var apnsID: UUID
    /// Where its sender keeps it, from 1, or 0: `send`'s input line, a gateway worker batch's slot. Carried to
    /// the result with the notification, so a bulk send needs no table from apns-id to origin shared by its
    /// reading and its answering threads.
    /// Not part of the notification's identity (``==`` and hashing leave it out).
    package var inputLine = 0

    /// A notification with a fresh `apns-id` unless one is given (give the same one to retry it).
    public init(
        deviceToken: DeviceToken, payload: [UInt8], topic: String, pushType: PushType = .alert, priority: Int? = nil,
        expiration: Int64? = nil, collapseID: String? = nil, apnsID: UUID = APNsNotification.newID()
    ) {
        self.deviceToken = deviceToken
        self.payload = payload
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.apnsID = apnsID
    }

    private static let generator = Locked(SplitMix64(seed: UInt64.random(in: 0...UInt64.max)))

    /// A new random `apns-id`. Foundation's `UUID()` reads `/dev/urandom` on Linux (an open, a read and a
    /// close per call); these come from a generator seeded once from the system, which is as unique and
    /// costs nanoseconds.
    public static func newID() -> UUID {
        generator.withLock { $0.nextUUID() }
    }

    /// Whether two notifications are the same: every field but ``inputLine``.
    public static func == (lhs: APNsNotification, rhs: APNsNotification) -> Bool {
        lhs.apnsID == rhs.apnsID && lhs.deviceToken == rhs.deviceToken && lhs.topic == rhs.topic
            && lhs.pushType == rhs.pushType && lhs.priority == rhs.priority && lhs.expiration == rhs.expiration
            && lhs.collapseID == rhs.collapseID && lhs.payload == rhs.payload
    }

    /// Hashes the fields ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(deviceToken)
        hasher.combine(payload)
        hasher.combine(topic)
        hasher.combine(pushType)
        hasher.combine(priority)
        hasher.combine(expiration)
        hasher.combine(collapseID)
        hasher.combine(apnsID)
    }

    /// `/3/device/<token>`.
    public var path: String { "/3/device/" + deviceToken.hex }

    /// The request headers, `authorization` first when a token is given.
    public func headers(token: ProviderToken?) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let token { headers.append(("authorization", token.authorization)) }
        headers.append(("apns-topic", topic))
        headers.append(("apns-push-type", pushType.rawValue))
        headers.append(("apns-id", UUIDText.lowercase(apnsID)))
        if let priority { headers.append(("apns-priority", String(priority))) }
        if let expiration { headers.append(("apns-expiration", String(expiration))) }
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        return headers
    }
}
