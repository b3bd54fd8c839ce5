/// Events claimed under one lease, oldest first, with the failed posts each has had.
public struct LeasedEvents<Event: Sendable>: Sendable {
    /// The lease the events are held under.
    public var lease: EventLease
    /// The events.
    public var events: [Event]
    /// Failed posts so far by event row id (absent: none), for the relay's backoff.
    public var failures: [Int64: Int]

    /// Events held under `lease`.
    public init(lease: EventLease, events: [Event], failures: [Int64: Int]) {
        self.lease = lease
        self.events = events
        self.failures = failures
    }
}
