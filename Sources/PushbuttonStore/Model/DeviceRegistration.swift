import Foundation

/// What a device (or the backend on its behalf) registers: a token and what to target it by.
public struct DeviceRegistration: Sendable, Hashable {
    public var app: String
    /// The APNs device token, lowercase hex.
    public var token: String
    /// `production` or `sandbox`.
    public var environment: String
    public var locale: String?
    public var appVersion: String?
    public var userID: String?
    public var tags: [String]
    /// When the device registered: a registration newer than a token's death revives it, an older one does not.
    public var registeredAt: Date
    /// The device's IANA time zone (`Europe/Paris`), for sends at a local time.
    public var timeZone: String?
    /// The device's own quiet hours (minutes after local midnight), overriding its app's.
    public var quietHours: (start: Int, end: Int)? {
        get { quietStart.flatMap { start in quietEnd.map { (start, $0) } } }
        set {
            quietStart = newValue?.start
            quietEnd = newValue?.end
        }
    }
    private var quietStart: Int?
    private var quietEnd: Int?

    public init(
        app: String, token: String, environment: String = "production", locale: String? = nil,
        appVersion: String? = nil, userID: String? = nil, tags: [String] = [], registeredAt: Date
    ) {
        self.app = app
        self.token = token
        self.environment = environment
        self.locale = locale
        self.appVersion = appVersion
        self.userID = userID
        self.tags = tags
        self.registeredAt = registeredAt
    }

    /// A registration with the device's time zone.
    public init(
        app: String, token: String, environment: String = "production", locale: String? = nil,
        appVersion: String? = nil, userID: String? = nil, tags: [String] = [], registeredAt: Date, timeZone: String?
    ) {
        self.init(
            app: app, token: token, environment: environment, locale: locale, appVersion: appVersion, userID: userID,
            tags: tags, registeredAt: registeredAt)
        self.timeZone = timeZone
    }
}
