import Foundation

/// What a device registers with Pushbutton's gateway (`PUT /v1/apps/{app}/devices/{token}`): its APNs token and
/// what campaigns target it by.
///
/// The one definition of the wire message: the device writes the body with ``bodyJSON`` (and keeps its last
/// registration as ``stateJSON``), the gateway reads it with ``read(body:token:at:receivedAt:maximumTags:diagnostics:)``
/// and stores it inside a `DeviceRegistration`. The token travels in the path, not in the body.
public struct DeviceRegistrationRequest: Sendable, Hashable {
    /// The APNs device token, lowercase hex.
    public var token: String
    /// `production` or `sandbox`: which APNs environment issued the token (development builds use sandbox).
    public var environment: String
    /// The device's language and region as a BCP 47 tag (`fr-FR`); `nil` when unknown.
    public var locale: String?
    /// The app's `CFBundleShortVersionString`; `nil` when unknown.
    public var appVersion: String?
    /// The app's id for its signed-in user, for sends to a user; `nil` when nobody is signed in.
    public var userID: String?
    /// The device's tags, for segments; sorted and unique when the device writes them.
    public var tags: [String]
    /// When the device got its token (`registered_at`, epoch milliseconds on the wire): a registration newer than a
    /// token's death (an APNs 410) revives it, an older one does not.
    public var registeredAt: Date
    /// The device's IANA time zone (`Europe/Paris`), for sends at a local time; `nil` when unknown.
    public var timeZone: String?

    /// A registration with every field given.
    public init(
        token: String, environment: String = "production", locale: String? = nil, appVersion: String? = nil,
        userID: String? = nil, tags: [String] = [], registeredAt: Date, timeZone: String? = nil
    ) {
        self.token = token
        self.environment = environment
        self.locale = locale
        self.appVersion = appVersion
        self.userID = userID
        self.tags = tags
        self.registeredAt = registeredAt
        self.timeZone = timeZone
    }

    /// ``registeredAt`` in whole epoch milliseconds, as the wire carries it.
    public var registeredAtMilliseconds: Int64 { Int64((registeredAt.timeIntervalSince1970 * 1000).rounded()) }
}
