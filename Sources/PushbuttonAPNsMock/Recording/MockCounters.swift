/// What the mock has seen so far.
public struct MockCounters: Sendable, Hashable {
    /// Connections accepted (TCP, before TLS).
    public var connections = 0
    /// Complete requests received.
    public var requests = 0
    /// Requests answered 200.
    public var accepted = 0
    /// Error answers by APNs reason (validation failures and injected 429/500/503 alike).
    public var rejectedByReason: [String: Int] = [:]
    /// Injected faults by kind: `429`, `500`, `503`, `refuse`, `drop`, `delay`, `silence`, `goaway`.
    public var faults: [String: Int] = [:]
    /// Requests that reused an `apns-id` after the mock had given it a final (non-retryable) error.
    public var retriesAfterFinalError = 0
    /// Acceptances of an `apns-id` that had already been accepted once.
    public var duplicateAcceptances = 0
    /// PING frames received (keep-alive checks by the client; nghttp2 answers them).
    public var pings = 0
    /// Silenced requests that have ended: cancelled by the client, or on a connection that dropped or began to
    /// drain (its client then sends them again without waiting for a timeout).
    public var silencesEnded = 0

    /// Silenced requests whose client is still waiting, each for its own timeout: a test that drives the client's
    /// clock moves it when these are all the client waits for, so an answer that is merely slow never times out.
    public var openSilences: Int { faults["silence", default: 0] - silencesEnded }

    /// Error answers of every reason.
    public var rejected: Int { rejectedByReason.values.reduce(0, +) }
}
