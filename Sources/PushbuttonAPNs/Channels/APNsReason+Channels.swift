extension APNsReason {
    /// 400: the `apns-channel-id` is not a channel id (base64 text) APNs could have issued.
    public static let badChannelId = APNsReason(rawValue: "BadChannelId")
    /// 400: the request needs an `apns-channel-id` header and has none.
    public static let missingChannelId = APNsReason(rawValue: "MissingChannelId")
    /// 400: the channel could not be created (the bundle id already has the most channels allowed, 10,000 per
    /// environment, or the body is not one APNs accepts).
    public static let cannotCreateChannelConfig = APNsReason(rawValue: "CannotCreateChannelConfig")
    /// 400: a broadcast needs an `apns-push-type` header (`liveactivity`) and has none.
    public static let missingPushType = APNsReason(rawValue: "MissingPushType")
    /// 403: broadcast push is not enabled for this app (a capability of its App ID).
    public static let featureNotEnabled = APNsReason(rawValue: "FeatureNotEnabled")
    /// 410: no such channel in this environment (deleted, never created, or created in the other one).
    public static let channelNotRegistered = APNsReason(rawValue: "ChannelNotRegistered")

    /// The reasons the channel management API and broadcasts add, with their statuses (besides the common
    /// ones: the provider token's, `BadPriority`, `BadExpirationDate`, `InvalidPushType`, `PayloadEmpty`,
    /// `PayloadTooLarge`, `TooManyRequests`, 500 and 503).
    public static let documentedForChannels: [(reason: APNsReason, status: Int)] = [
        (.badChannelId, 400), (.missingChannelId, 400), (.cannotCreateChannelConfig, 400), (.missingPushType, 400),
        (.featureNotEnabled, 403), (.channelNotRegistered, 410),
    ]

    /// Whether the channel is gone for good: stop broadcasting on it (and forget it).
    public var channelIsGone: Bool { self == .channelNotRegistered }

    /// What to do about a channel or broadcast reason, for people; nil for the others.
    public var channelHint: String? {
        switch self {
        case .badChannelId: return "use a channel id exactly as APNs returned it from create (base64 text)"
        case .missingChannelId: return "give the channel id (the apns-channel-id header)"
        case .cannotCreateChannelConfig:
            return "delete channels you no longer use (a bundle id has at most 10,000 per environment)"
        case .missingPushType: return "broadcasts need apns-push-type: liveactivity"
        case .featureNotEnabled: return "enable Broadcast Capability for the app's App ID in the developer portal"
        case .channelNotRegistered:
            return "the channel does not exist in this environment: list the channels, or create a new one"
        default: return nil
        }
    }
}
