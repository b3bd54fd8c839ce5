/// APNs' reason for refusing a notification (the `reason` of its JSON error body).
///
/// Extensible: a reason Apple adds later is kept as it was sent (``isKnown`` is then false).
public struct APNsReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The reason as APNs sent it.
    public var rawValue: String
    /// The reason APNs names `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// 400: the `apns-collapse-id` is longer than 64 bytes.
    public static let badCollapseId = APNsReason(rawValue: "BadCollapseId")
    /// 400: the device token is not valid, or is for the other environment (sandbox or production).
    public static let badDeviceToken = APNsReason(rawValue: "BadDeviceToken")
    /// 400: the `apns-expiration` value is not valid.
    public static let badExpirationDate = APNsReason(rawValue: "BadExpirationDate")
    /// 400: the `apns-id` value is not valid.
    public static let badMessageId = APNsReason(rawValue: "BadMessageId")
    /// 400: the `apns-priority` value is not valid.
    public static let badPriority = APNsReason(rawValue: "BadPriority")
    /// 400: the `apns-topic` value is not valid.
    public static let badTopic = APNsReason(rawValue: "BadTopic")
    /// 400: the device token does not belong to the `apns-topic`.
    public static let deviceTokenNotForTopic = APNsReason(rawValue: "DeviceTokenNotForTopic")
    /// 400: a header was sent more than once.
    public static let duplicateHeaders = APNsReason(rawValue: "DuplicateHeaders")
    /// 400: the connection was idle too long.
    public static let idleTimeout = APNsReason(rawValue: "IdleTimeout")
    /// 400: the `apns-push-type` value is not valid.
    public static let invalidPushType = APNsReason(rawValue: "InvalidPushType")
    /// 400: the request path names no device token.
    public static let missingDeviceToken = APNsReason(rawValue: "MissingDeviceToken")
    /// 400: the `apns-topic` header is missing where it is required.
    public static let missingTopic = APNsReason(rawValue: "MissingTopic")
    /// 400: the payload is empty.
    public static let payloadEmpty = APNsReason(rawValue: "PayloadEmpty")
    /// 400: sending to this topic is not allowed.
    public static let topicDisallowed = APNsReason(rawValue: "TopicDisallowed")
    /// 403: the client certificate is not valid.
    public static let badCertificate = APNsReason(rawValue: "BadCertificate")
    /// 403: the client certificate is for the other environment.
    public static let badCertificateEnvironment = APNsReason(rawValue: "BadCertificateEnvironment")
    /// 403: the provider token is stale: make a new one (at most every 20 minutes).
    public static let expiredProviderToken = APNsReason(rawValue: "ExpiredProviderToken")
    /// 403: the action is not allowed.
    public static let forbidden = APNsReason(rawValue: "Forbidden")
    /// 403: the provider token is not valid, or its signature cannot be verified.
    public static let invalidProviderToken = APNsReason(rawValue: "InvalidProviderToken")
    /// 403: neither a client certificate nor an `authorization` provider token was given.
    public static let missingProviderToken = APNsReason(rawValue: "MissingProviderToken")
    /// 403: the token's key id is not related to the key of the connection's first token.
    public static let unrelatedKeyIdInToken = APNsReason(rawValue: "UnrelatedKeyIdInToken")
    /// 403: the token's key id is for the other environment.
    public static let badEnvironmentKeyIdInToken = APNsReason(rawValue: "BadEnvironmentKeyIdInToken")
    /// 404: the request path is not valid.
    public static let badPath = APNsReason(rawValue: "BadPath")
    /// 405: the method is not `POST`.
    public static let methodNotAllowed = APNsReason(rawValue: "MethodNotAllowed")
    /// 410: the device token has expired: stop sending to it.
    public static let expiredToken = APNsReason(rawValue: "ExpiredToken")
    /// 410: the device token is no longer active for the topic (the app was removed): stop sending to it.
    public static let unregistered = APNsReason(rawValue: "Unregistered")
    /// 413: the payload is over the push type's size limit.
    public static let payloadTooLarge = APNsReason(rawValue: "PayloadTooLarge")
    /// 429: the provider token changed too often (more than every 20 minutes).
    public static let tooManyProviderTokenUpdates = APNsReason(rawValue: "TooManyProviderTokenUpdates")
    /// 429: too many requests in a row to the same device token.
    public static let tooManyRequests = APNsReason(rawValue: "TooManyRequests")
    /// 500: APNs failed internally (retried).
    public static let internalServerError = APNsReason(rawValue: "InternalServerError")
    /// 503: APNs is unavailable (retried).
    public static let serviceUnavailable = APNsReason(rawValue: "ServiceUnavailable")
    /// 503: the APNs server is shutting down (retried).
    public static let shutdown = APNsReason(rawValue: "Shutdown")

    /// Every reason APNs documents, with the status it comes with.
    public static let documented: [(reason: APNsReason, status: Int)] = [
        (.badCollapseId, 400), (.badDeviceToken, 400), (.badExpirationDate, 400), (.badMessageId, 400),
        (.badPriority, 400), (.badTopic, 400), (.deviceTokenNotForTopic, 400), (.duplicateHeaders, 400),
        (.idleTimeout, 400), (.invalidPushType, 400), (.missingDeviceToken, 400), (.missingTopic, 400),
        (.payloadEmpty, 400), (.topicDisallowed, 400), (.badCertificate, 403), (.badCertificateEnvironment, 403),
        (.expiredProviderToken, 403), (.forbidden, 403), (.invalidProviderToken, 403), (.missingProviderToken, 403),
        (.unrelatedKeyIdInToken, 403), (.badEnvironmentKeyIdInToken, 403), (.badPath, 404), (.methodNotAllowed, 405),
        (.expiredToken, 410), (.unregistered, 410), (.payloadTooLarge, 413), (.tooManyProviderTokenUpdates, 429),
        (.tooManyRequests, 429), (.internalServerError, 500), (.serviceUnavailable, 503), (.shutdown, 503),
    ]

    /// Whether Apple documents this reason.
    public var isKnown: Bool {
        Self.documented.contains { $0.reason == self } || Self.documentedForChannels.contains { $0.reason == self }
    }

    /// Whether the device token is dead: stop sending to it.
    public var tokenIsDead: Bool { self == .unregistered || self == .expiredToken || self == .badDeviceToken }

    /// The reason as APNs sent it.
    public var description: String { rawValue }
}
