/// APNs' confirmation that a channel was deleted: devices get no more broadcasts on it, and the id is
/// never reused.
public struct APNsChannelDeletion: Sendable, Hashable {
    /// The app the channel belonged to.
    public var bundleID: String
    /// The deleted channel's id.
    public var channelID: String
    /// The `apns-request-id` of the delete request.
    public var requestID: String?

    /// A confirmation of `channelID`'s deletion.
    public init(bundleID: String, channelID: String, requestID: String? = nil) {
        self.bundleID = bundleID
        self.channelID = channelID
        self.requestID = requestID
    }
}
