import Pushbutton
import PushbuttonSupport

/// What to do after an answer: the retry policy APNs' documentation implies.
///
/// TooManyRequests, 500, 503 and streams lost in transit (a GOAWAY, a dropped connection, a timeout) are
/// retried with backoff and jitter and the same `apns-id`; an ExpiredProviderToken gets one retry with a
/// refreshed token; everything else is final: BadDeviceToken, DeviceTokenNotForTopic, Forbidden,
/// ExpiredToken, Unregistered, PayloadTooLarge and the other 4xx.
public struct RetryPolicy: Sendable, Hashable {
    /// What to do next.
    public enum Decision: Sendable, Hashable {
        case done
        /// Try again after this delay.
        case retry(after: Duration)
        /// Refresh the provider token and try once more.
        case refreshTokenAndRetry
        case giveUp
    }

    /// Attempts per notification, the first included.
    public var maximumAttempts: Int
    /// The delay before the first retry; each further retry doubles it (with jitter).
    public var baseBackoff: Duration
    /// The longest delay between two attempts.
    public var maximumBackoff: Duration

    /// A policy with 5 attempts and backoff from 200 ms up to 30 s by default.
    public init(
        maximumAttempts: Int = 5, baseBackoff: Duration = .milliseconds(200), maximumBackoff: Duration = .seconds(30)
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseBackoff = baseBackoff
        self.maximumBackoff = maximumBackoff
    }

    /// Whether a status and reason are worth retrying.
    public static func isRetryable(status: Int, reason: APNsReason?) -> Bool {
        if reason == .tooManyProviderTokenUpdates { return false }  // fixed by not minting, not by retrying
        return status == 429 || status == 500 || status == 503
    }

    /// The decision after `attempt` (1-based) got `response`, or failed in transit when `response` is `nil`.
    /// `tokenRefreshed` says whether this notification already had its one token refresh. `jitter` (0...1) is
    /// evaluated only for a retry, so a delivery costs no random number.
    public func decide(
        after response: APNsResponse?, attempt: Int, tokenRefreshed: Bool, jitter: @autoclosure () -> Double
    ) -> Decision {
        if let response {
            if response.status == 200 { return .done }
            if response.reason == .expiredProviderToken { return tokenRefreshed ? .giveUp : .refreshTokenAndRetry }
            guard Self.isRetryable(status: response.status, reason: response.reason) else { return .giveUp }
        }
        guard attempt < maximumAttempts else { return .giveUp }
        return .retry(after: backoff(afterAttempt: attempt, jitter: jitter()))
    }

    /// Exponential backoff with equal jitter: half the delay fixed, half random.
    public func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
        Backoff.delay(afterAttempt: attempt, base: baseBackoff, maximum: maximumBackoff, jitter: jitter)
    }
}
