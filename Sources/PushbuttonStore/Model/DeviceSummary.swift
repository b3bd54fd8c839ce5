import Foundation

/// An app's registered devices counted: active and inactive, by environment, locale and app version, and the
/// most recently deactivated (dead) tokens. The `by…` counts cover every registered device, active or not.
public struct DeviceSummary: Sendable, Hashable {
    /// A device APNs declared dead (410), with APNs' timestamp.
    public struct InactiveToken: Sendable, Hashable {
        /// The device token, whole (the console and the summary API redact it).
        public var token: String
        /// When APNs says the token stopped being valid.
        public var inactiveSince: Date

        /// A dead token and APNs' timestamp.
        public init(token: String, inactiveSince: Date) {
            self.token = token
            self.inactiveSince = inactiveSince
        }
    }

    /// Every registered device of the app.
    public var total: Int
    /// The devices that are sent to (APNs has not declared their token dead).
    public var active: Int
    /// The devices whose token APNs declared dead.
    public var inactive: Int { total - active }
    /// Devices per APNs environment (`production`, `sandbox`).
    public var byEnvironment: [String: Int]
    /// Devices without a locale are counted under `unknown`.
    public var byLocale: [String: Int]
    /// Devices without an app version are counted under `unknown`.
    public var byAppVersion: [String: Int]
    /// The latest deactivated devices, newest first.
    public var inactiveTokens: [InactiveToken]

    /// A summary from its counts.
    public init(
        total: Int, active: Int, byEnvironment: [String: Int], byLocale: [String: Int], byAppVersion: [String: Int],
        inactiveTokens: [InactiveToken]
    ) {
        self.total = total
        self.active = active
        self.byEnvironment = byEnvironment
        self.byLocale = byLocale
        self.byAppVersion = byAppVersion
        self.inactiveTokens = inactiveTokens
    }
}
