import Pushbutton

/// Requests a minute an app's API keys may make, by kind, and a device token may make with the publishable key
/// (which every copy of the app carries, so anyone may hold it). Set in `limits` for every app and in an app's
/// `rateLimits` for that app; 0 means no limit. A key over its rate gets `429` with `Retry-After`.
///
/// Each is a token bucket holding ``burstSeconds`` seconds' worth of requests (at least ``minimumBurst``): a
/// client may send that many at once, then at the rate.
public struct RateLimits: Sendable, Hashable {
    /// Requests a minute with the app's secret keys, all together (backends). Off by default: a backend's sends
    /// are bounded by the gateway's capacity, and a limit it did not ask for would drop its traffic.
    public var secretPerMinute: Int
    /// Requests a minute with the app's publishable keys, all devices together.
    public var publishablePerMinute: Int
    /// Requests a minute about one device token with the publishable key (its registration and tags).
    public var devicePerMinute: Int

    /// How many seconds of the rate a bucket holds.
    public static let burstSeconds = 10
    /// The smallest bucket, so a low rate still lets a device register and set its tags in one go.
    public static let minimumBurst = 20

    /// The defaults: secret keys unlimited, 60,000 a minute with the publishable keys, 60 per device token.
    public init(secretPerMinute: Int = 0, publishablePerMinute: Int = 60_000, devicePerMinute: Int = 60) {
        self.secretPerMinute = secretPerMinute
        self.publishablePerMinute = publishablePerMinute
        self.devicePerMinute = devicePerMinute
    }

    /// The configuration keys, in `limits` and in an app's `rateLimits`.
    static let keys = ["secretRequestsPerMinute", "publishableRequestsPerMinute", "deviceRequestsPerMinute"]

    /// These limits with what `reader` (an object of ``keys``) sets.
    func reading(_ reader: ConfigReader, diagnostics: inout [Diagnostic]) -> RateLimits {
        var limits = self
        let range = 0...100_000_000
        limits.secretPerMinute =
            reader.integer("secretRequestsPerMinute", in: range, diagnostics: &diagnostics) ?? secretPerMinute
        limits.publishablePerMinute =
            reader.integer("publishableRequestsPerMinute", in: range, diagnostics: &diagnostics)
            ?? publishablePerMinute
        limits.devicePerMinute =
            reader.integer("deviceRequestsPerMinute", in: range, diagnostics: &diagnostics) ?? devicePerMinute
        return limits
    }
}
