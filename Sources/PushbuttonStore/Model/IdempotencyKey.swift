/// An `Idempotency-Key` with a fingerprint of the request it came with: a retry with the same key and the
/// same request gets the first answer; the same key with a different request is a conflict.
public struct IdempotencyKey: Sendable, Hashable {
    /// The client's `Idempotency-Key` header, as sent.
    public var key: String
    /// A hash of the request the key came with, to tell a retry from a different request reusing the key.
    public var fingerprint: String

    /// A key and the fingerprint of its request.
    public init(key: String, fingerprint: String) {
        self.key = key
        self.fingerprint = fingerprint
    }
}

/// What an enqueue with an idempotency key did.
public enum EnqueueResult: Sendable, Hashable {
    /// Stored now.
    case created(id: String)
    /// The key was seen before: the first request's id, and whether this request matches it.
    case replayed(id: String, sameRequest: Bool)
}

/// What an append of a campaign's page with an idempotency key did.
public enum PageAppendResult: Sendable, Hashable {
    /// Stored now: how many recipients were added.
    case added(Int)
    /// The campaign saw the key before: nothing stored; whether this page matches the first one.
    case replayed(sameRequest: Bool)
}
