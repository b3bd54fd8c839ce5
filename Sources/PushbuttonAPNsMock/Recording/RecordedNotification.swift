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
    /// The `apns-topic` header.
    public var topic: String
    /// The `apns-push-type` header; `nil` when the request had none.
    public var pushType: String?
    /// The `apns-priority` header; `nil` when the request had none.
    public var priority: Int?
    /// The `apns-expiration` header, epoch seconds; `nil` when the request had none.
    public var expiration: Int64?
    /// The `apns-collapse-id` header; `nil` when the request had none.
    public var collapseID: String?
    /// The request body: the payload's JSON bytes.
    public var payload: [UInt8]
    /// Which connection carried it (connections are numbered from 1 in the order they were accepted).
    public var connection: Int
    /// When the mock accepted it, by its configured clock.
    public var receivedAt: Date

    /// The payload read back as a typed ``Payload`` (nil if it is not an object, which the mock refuses).
    public var typedPayload: Payload? { Payload.parse(payload).payload }

    /// The payload as text.
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }
}
