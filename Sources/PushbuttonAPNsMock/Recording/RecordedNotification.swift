import Foundation
import Pushbutton

/// A notification the mock accepted: what a device would have received, with the request's headers.
public struct RecordedNotification: Sendable {
    /// The `apns-id` the mock answered with (the sender's, or one it generated).
    public var apnsID: String
    /// The `apns-unique-id` the mock answered with (APNs sends it in the sandbox).
    public var uniqueID: String
    /// The device token, lowercase hex.
    public var deviceToken: String
    public var topic: String
    public var pushType: String?
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?
    public var payload: [UInt8]
    /// Which connection carried it (connections are numbered from 1 in the order they were accepted).
    public var connection: Int
    public var receivedAt: Date

    /// The payload read back as a typed ``Payload`` (nil if it is not an object, which the mock refuses).
    public var typedPayload: Payload? { Payload.parse(payload).payload }

    /// The payload as text.
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }
}
