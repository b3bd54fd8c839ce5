/// Every channel of one bundle id, as APNs lists them.
public struct APNsChannelList: Sendable, Hashable {
    /// The app whose channels these are.
    public var bundleID: String
    /// The channel ids, in the order APNs sent them.
    public var channelIDs: [String]
    /// The `apns-request-id` of the list request.
    public var requestID: String?

    /// A list of `bundleID`'s channels.
    public init(bundleID: String, channelIDs: [String], requestID: String? = nil) {
        self.bundleID = bundleID
        self.channelIDs = channelIDs
        self.requestID = requestID
    }
}
