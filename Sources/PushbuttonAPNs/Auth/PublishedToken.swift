import PushbuttonSupport

/// The token last minted, behind a lock, for ``TokenProvider/freshToken()``.
final class PublishedToken: Sendable {
    private let token = Locked<ProviderToken?>(nil)

    func get() -> ProviderToken? { token.withLock { $0 } }
    func set(_ token: ProviderToken?) { self.token.withLock { $0 = token } }
}
