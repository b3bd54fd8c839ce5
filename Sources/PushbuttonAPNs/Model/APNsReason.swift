/// APNs' reason for refusing a notification (the `reason` of its JSON error body).
///
/// Extensible: a reason Apple adds later is kept as it was sent (``isKnown`` is then false).
public struct APNsReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let badCollapseId = APNsReason(rawValue: "BadCollapseId")
    public static let badDeviceToken = APNsReason(rawValue: "BadDeviceToken")
    public static let badExpirationDate = APNsReason(rawValue: "BadExpirationDate")
    public static let badMessageId = APNsReason(rawValue: "BadMessageId")
    public static let badPriority = APNsReason(rawValue: "BadPriority")
    public static let badTopic = APNsReason(rawValue: "BadTopic")
    public static let deviceTokenNotForTopic = APNsReason(rawValue: "DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNsReason(rawValue: "DuplicateHeaders")
    public static let idleTimeout = APNsReason(rawValue: "IdleTimeout")
    public static let invalidPushType = APNsReason(rawValue: "InvalidPushType")
    public static let missingDeviceToken = APNsReason(rawValue: "MissingDeviceToken")
    public static let missingTopic = APNsReason(rawValue: "MissingTopic")
    public static let payloadEmpty = APNsReason(rawValue: "PayloadEmpty")
    public static let topicDisallowed = APNsReason(rawValue: "TopicDisallowed")
    public static let badCertificate = APNsReason(rawValue: "BadCertificate")
    public static let badCertificateEnvironment = APNsReason(rawValue: "BadCertificateEnvironment")
    public static let expiredProviderToken = APNsReason(rawValue: "ExpiredProviderToken")
    public static let forbidden = APNsReason(rawValue: "Forbidden")
    public static let invalidProviderToken = APNsReason(rawValue: "InvalidProviderToken")
    public static let missingProviderToken = APNsReason(rawValue: "MissingProviderToken")
    public static let unrelatedKeyIdInToken = APNsReason(rawValue: "UnrelatedKeyIdInToken")
    public static let badEnvironmentKeyIdInToken = APNsReason(rawValue: "BadEnvironmentKeyIdInToken")
    public static let badPath = APNsReason(rawValue: "BadPath")
    public static let methodNotAllowed = APNsReason(rawValue: "MethodNotAllowed")
    public static let expiredToken = APNsReason(rawValue: "ExpiredToken")
    public static let unregistered = APNsReason(rawValue: "Unregistered")
    public static let payloadTooLarge = APNsReason(rawValue: "PayloadTooLarge")
    public static let tooManyProviderTokenUpdates = APNsReason(rawValue: "TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNsReason(rawValue: "TooManyRequests")
    public static let internalServerError = APNsReason(rawValue: "InternalServerError")
    public static let serviceUnavailable = APNsReason(rawValue: "ServiceUnavailable")
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
    public var isKnown: Bool { Self.documented.contains { $0.reason == self } }

    /// Whether the device token is dead: stop sending to it.
    public var tokenIsDead: Bool { self == .unregistered || self == .expiredToken || self == .badDeviceToken }

    public var description: String { rawValue }
}
