/// A broadcast channel as APNs describes it: created for one bundle id, with a fixed storage policy.
public struct APNsChannel: Sendable, Hashable, CustomStringConvertible {
    /// The channel id APNs assigned (base64 text): what devices subscribe with
    /// (`ActivityKit`'s `PushType.channel(_:)`) and what broadcasts carry in `apns-channel-id`.
    public var id: String
    /// The app the channel belongs to.
    public var bundleID: String
    /// Whether APNs stores the latest broadcast for offline devices.
    public var messageStoragePolicy: APNsMessageStoragePolicy
    /// The body's `push-type`: `LiveActivity`, the only one APNs accepts for channels.
    public var pushType: String
    /// The `apns-request-id` of the request that returned this description.
    public var requestID: String?

    /// The only `push-type` a channel can have.
    public static let liveActivityPushType = "LiveActivity"

    /// A channel as APNs describes it.
    public init(
        id: String, bundleID: String, messageStoragePolicy: APNsMessageStoragePolicy,
        pushType: String = APNsChannel.liveActivityPushType, requestID: String? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.messageStoragePolicy = messageStoragePolicy
        self.pushType = pushType
        self.requestID = requestID
    }

    /// The id, the bundle id, the push type and the storage policy.
    public var description: String {
        "channel \(id) of \(bundleID) (\(pushType), \(messageStoragePolicy))"
    }
}
