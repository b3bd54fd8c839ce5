import Foundation

/// An app's registered devices counted: active and inactive, by environment, locale and app version, and the
/// most recently deactivated (dead) tokens. The `by…` counts cover every registered device, active or not.
public struct DeviceSummary: Sendable, Hashable {
    /// A device APNs declared dead (410), with APNs' timestamp.
    public struct InactiveToken: Sendable, Hashable {
        public var token: String
        public var inactiveSince: Date

        public init(token: String, inactiveSince: Date) {
            self.token = token
            self.inactiveSince = inactiveSince
        }
    }

    public var total: Int
    public var active: Int
    public var inactive: Int { total - active }
    public var byEnvironment: [String: Int]
    /// Devices without a locale are counted under `unknown`.
    public var byLocale: [String: Int]
    /// Devices without an app version are counted under `unknown`.
    public var byAppVersion: [String: Int]
    /// The latest deactivated devices, newest first.
    public var inactiveTokens: [InactiveToken]

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
