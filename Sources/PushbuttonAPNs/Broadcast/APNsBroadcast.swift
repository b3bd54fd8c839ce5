import Foundation
import Pushbutton
import PushbuttonSupport

/// One broadcast: a Live Activity payload sent once to a channel, which APNs delivers to every device
/// subscribed to it (iOS 18).
///
/// It goes to `POST /4/broadcasts/apps/<bundle id>` on the notification hosts, with the channel in
/// `apns-channel-id`, `apns-push-type: liveactivity` (the only push type a channel carries) and no device
/// token (Apple, "Sending broadcast push notification requests to APNs"). Priority is 10, 5 or 1; the
/// payload is a Live Activity's (`aps.event`, `aps.content-state`, …) of at most 5120 bytes.
public struct APNsBroadcast: Sendable, Hashable {
    /// The app whose channel this is (the path names it; no `apns-topic` is sent).
    public var bundleID: String
    /// `apns-channel-id`: the id ``APNsChannels/create(bundleID:messageStoragePolicy:requestID:)`` returned.
    public var channelID: String
    /// The payload's JSON bytes.
    public var payload: [UInt8]
    /// `apns-priority`: 10, 5 or 1 (nil: APNs' default, 10).
    public var priority: Int?
    /// `apns-expiration` in epoch seconds; 0 means deliver once or not at all.
    public var expiration: Int64?
    /// `apns-request-id`: kept across retries, and the id of the ``APNsResult``.
    public var requestID: UUID

    /// The push type every broadcast has.
    public static let pushType = PushType.liveactivity
    /// The largest broadcast payload APNs accepts, in bytes.
    public static let maximumPayloadSize = 5120
    /// The priorities APNs accepts on a broadcast.
    public static let priorities = [10, 5, 1]

    /// A broadcast of `payload` bytes (JSON) to `channelID` of `bundleID`.
    public init(
        bundleID: String, channelID: String, payload: [UInt8], priority: Int? = nil, expiration: Int64? = nil,
        requestID: UUID = APNsNotification.newID()
    ) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.payload = payload
        self.priority = priority
        self.expiration = expiration
        self.requestID = requestID
    }

    /// A broadcast of `payload` (written as compact JSON), with typed priority and expiration.
    ///
    /// ```swift
    /// let broadcast = APNsBroadcast(
    ///     bundleID: "com.example.scores", channelID: channel.id, payload: update, priority: .immediately)
    /// ```
    public init(
        bundleID: String, channelID: String, payload: Payload, priority: APNsPriority? = nil,
        expiration: APNsExpiration? = nil, requestID: UUID = APNsNotification.newID()
    ) {
        self.init(
            bundleID: bundleID, channelID: channelID, payload: PayloadWriter.encode(payload),
            priority: priority?.rawValue, expiration: expiration?.epochSeconds, requestID: requestID)
    }

    /// `/4/broadcasts/apps/<bundle id>`.
    public var path: String { "/4/broadcasts/apps/" + bundleID }

    /// The request headers, `authorization` first when a token is given.
    public func headers(token: ProviderToken?) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let token { headers.append(("authorization", token.authorization)) }
        headers.append(("apns-channel-id", channelID))
        headers.append(("apns-push-type", Self.pushType.rawValue))
        headers.append(("apns-request-id", UUIDText.lowercase(requestID)))
        if let priority { headers.append(("apns-priority", String(priority))) }
        if let expiration { headers.append(("apns-expiration", String(expiration))) }
        return headers
    }

    /// Why APNs would refuse this broadcast before looking at the channel, or nil: checked before sending.
    public var problem: String? {
        if let problem = APNsChannelRequest.bundleIDProblem(bundleID) { return problem }
        if let problem = APNsChannelRequest.channelIDProblem(channelID) { return problem }
        if let priority, !Self.priorities.contains(priority) {
            return "priority \(priority) is not one a broadcast can have: use 10, 5 or 1"
        }
        if let expiration, expiration < 0 { return "the expiration \(expiration) is negative: use epoch seconds, or 0" }
        if payload.isEmpty { return "the payload is empty: a broadcast carries a Live Activity payload" }
        if payload.count > Self.maximumPayloadSize {
            return "the payload is \(payload.count) bytes, over a broadcast's \(Self.maximumPayloadSize)"
        }
        return nil
    }
}
