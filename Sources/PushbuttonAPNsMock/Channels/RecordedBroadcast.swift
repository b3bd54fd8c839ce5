import Foundation
import Pushbutton

/// A broadcast the mock accepted: what every device subscribed to the channel would have received.
public struct RecordedBroadcast: Sendable {
    /// The `apns-request-id` the mock answered with (the sender's, or one it generated).
    public var requestID: String
    /// The app of the request path.
    public var bundleID: String
    /// `apns-channel-id`.
    public var channelID: String
    /// `apns-priority`, if sent.
    public var priority: Int?
    /// `apns-expiration`, if sent.
    public var expiration: Int64?
    /// The payload's bytes.
    public var payload: [UInt8]
    /// Which connection carried it (numbered from 1 in the order connections were accepted).
    public var connection: Int
    /// When it arrived (the mock's clock).
    public var receivedAt: Date

    /// The payload read back as a typed ``Payload`` (nil if it is not an object, which the mock refuses).
    public var typedPayload: Payload? { Payload.parse(payload).payload }

    /// The payload as text.
    public var payloadText: String { String(decoding: payload, as: UTF8.self) }
}
