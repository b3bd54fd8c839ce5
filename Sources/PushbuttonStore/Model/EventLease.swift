/// One relay's hold on the events it claimed from a queue: only the holder of the token may renew, finish or
/// retry them. A lease that runs out unrenewed (its process died) lets any process claim the events again
/// under a new token, and the old holder's late finish then changes nothing.
public struct EventLease: Sendable, Hashable {
    /// The queue the events came from.
    public var queue: EventQueue
    /// The lease's random token.
    public var token: String

    /// A lease on `queue` with `token`.
    public init(queue: EventQueue, token: String) {
        self.queue = queue
        self.token = token
    }
}
