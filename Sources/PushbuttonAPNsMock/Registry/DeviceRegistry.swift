import Foundation
import PushbuttonSupport

/// The devices the mock knows, and what it answers for each token.
///
/// By default every well-formed token is accepted (`acceptsUnknownTokens`). Register tokens to make it
/// strict: then an unknown token is `BadDeviceToken`, a token registered for another app is
/// `DeviceTokenNotForTopic`, and an unregistered one is `410 Unregistered` with the time it died.
public final class DeviceRegistry: Sendable {
    /// What the mock knows about one token.
    public enum Status: Sendable, Hashable {
        /// Installed for this bundle id (the topic without push-type suffixes).
        case registered(topic: String)
        /// The app was removed or the token is no longer valid since this time.
        case unregistered(since: Date)
        /// Never valid: APNs answers BadDeviceToken.
        case bad
    }

    private struct State {
        var acceptsUnknownTokens = true
        var tokens: [String: Status] = [:]
    }

    private let state = Locked(State())

    /// A registry that accepts every well-formed token until the first registration.
    public init() {}

    /// Whether tokens that were never registered are accepted (true until the first registration).
    public var acceptsUnknownTokens: Bool {
        get { state.withLock { $0.acceptsUnknownTokens } }
        set { state.withLock { $0.acceptsUnknownTokens = newValue } }
    }

    /// Registers a device for a bundle id; from then on unknown tokens are refused.
    public func register(token: String, topic: String) {
        state.withLock {
            $0.tokens[token.lowercased()] = .registered(topic: topic)
            $0.acceptsUnknownTokens = false
        }
    }

    /// Marks a token as dead since `date` (410 Unregistered with that timestamp).
    public func unregister(token: String, at date: Date = Date()) {
        state.withLock { $0.tokens[token.lowercased()] = .unregistered(since: date) }
    }

    /// Marks a token as never valid (400 BadDeviceToken).
    public func markBad(token: String) {
        state.withLock { $0.tokens[token.lowercased()] = .bad }
    }

    /// What the registry knows of `token` (any case); `nil` when it was never registered or marked.
    public func status(of token: String) -> Status? {
        state.withLock { $0.tokens[token.lowercased()] }
    }

    /// APNs' answer for a token and a bundle id, or nil when the device accepts the notification.
    func check(token: String, bundleID: String) -> MockResponse? {
        let (status, acceptsUnknown) = state.withLock { ($0.tokens[token], $0.acceptsUnknownTokens) }
        switch status {
        case nil:
            return acceptsUnknown ? nil : MockResponse(status: 400, reason: "BadDeviceToken")
        case .registered(let topic):
            return topic == bundleID ? nil : MockResponse(status: 400, reason: "DeviceTokenNotForTopic")
        case .unregistered(let since):
            return MockResponse(
                status: 410, reason: "Unregistered", timestamp: Int64((since.timeIntervalSince1970 * 1000).rounded()))
        case .bad:
            return MockResponse(status: 400, reason: "BadDeviceToken")
        }
    }
}
