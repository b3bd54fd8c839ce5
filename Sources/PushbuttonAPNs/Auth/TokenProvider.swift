import Foundation
import PushbuttonSupport

/// The one provider token every connection shares, refreshed by age.
///
/// APNs refuses tokens older than an hour and answers `TooManyProviderTokenUpdates` to a sender that
/// changes tokens more often than every 20 minutes, so: one token for every connection, a new one after
/// ``refreshInterval`` (between 20 and 60 minutes; 50 by default), never one per request or per
/// connection, and never because of a 429. An `ExpiredProviderToken` answer may replace the token early,
/// but only if it is at least 20 minutes old.
public actor TokenProvider {
    /// APNs' floor between token changes.
    public static let minimumRefreshInterval: TimeInterval = 20 * 60
    /// APNs' ceiling on a token's age.
    public static let maximumAge: TimeInterval = 60 * 60

    private let key: P256PrivateKey
    /// The `.p8` key's id, written in every token's `kid`.
    public nonisolated let keyID: String
    /// The Apple Developer team id, written in every token's `iss`.
    public nonisolated let teamID: String
    /// How old a token gets before the next request gets a new one, in seconds (20 to 60 minutes).
    public nonisolated let refreshInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var current: ProviderToken? {
        get { published.get() }
        set { published.set(newValue) }
    }
    /// Where the current token lives, readable without a hop to the actor: a bulk send asks for it once per
    /// notification, and that hop cost more than the rest of building the request.
    private nonisolated let published = PublishedToken()
    /// How many tokens were minted (for tests and metrics).
    public private(set) var mintCount = 0
    /// Who hears of each token made (``APNsObserver``s of the clients that share this provider).
    nonisolated let observers = ObserverSlot()

    /// A provider that signs tokens with `key`; `now` is the clock tokens are dated and aged by (a fixed one in
    /// tests).
    public init(
        key: P256PrivateKey, keyID: String, teamID: String, refreshInterval: TimeInterval = 50 * 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.refreshInterval = min(max(refreshInterval, Self.minimumRefreshInterval), Self.maximumAge - 60)
        self.now = now
    }

    /// The current token if it is younger than ``refreshInterval``, without waiting for the actor; nil
    /// when ``token()`` must mint one.
    public nonisolated func freshToken() -> ProviderToken? {
        guard let token = published.get(), now().timeIntervalSince(token.issuedAt) < refreshInterval else {
            return nil
        }
        return token
    }

    /// The current token, minting one when there is none or it has reached ``refreshInterval``.
    public func token() throws(KeyError) -> ProviderToken {
        if let current, now().timeIntervalSince(current.issuedAt) < refreshInterval { return current }
        return try mint()
    }

    /// After APNs answered `ExpiredProviderToken` to `rejected`: a fresh token if `rejected` is the current
    /// one and at least 20 minutes old, otherwise the current token (another request already refreshed it,
    /// or refreshing now would break the 20-minute rule). Returns `nil` when no new token may be made yet.
    public func tokenAfterExpiry(of rejected: ProviderToken) throws(KeyError) -> ProviderToken? {
        guard let current else { return try mint() }
        if current.value != rejected.value { return current }
        guard now().timeIntervalSince(current.issuedAt) >= Self.minimumRefreshInterval else { return nil }
        return try mint()
    }

    private func mint() throws(KeyError) -> ProviderToken {
        let token = try ProviderToken(key: key, keyID: keyID, teamID: teamID, issuedAt: now())
        current = token
        mintCount += 1
        observers.report(.tokenMinted(keyID: keyID, isRefresh: mintCount > 1))
        return token
    }
}
