/// How the outbox retries, expires, caps and prunes.
public struct OutboxOptions: Sendable, Hashable {
    /// What happens when the outbox is full.
    public enum WhenFull: String, Sendable, Hashable {
        /// New entries are refused with ``OutboxError/full(capacity:)``: the caller learns the tap was not kept.
        case rejectNew
        /// The oldest pending entry is moved to the dead letters (reason "evicted") to make room.
        case deadLetterOldest
    }

    /// Attempts before an entry is dead-lettered.
    public var maximumAttempts: Int
    /// How long an entry may wait to be delivered before it is dead-lettered.
    public var timeToLive: Duration
    /// The first retry's delay; each further retry doubles it, up to ``maximumBackoff``, with jitter.
    public var baseBackoff: Duration
    /// The longest delay between two retries, however many came before.
    public var maximumBackoff: Duration
    /// The most entries waiting (pending or in flight) at once.
    public var capacity: Int
    /// What an enqueue does when ``capacity`` entries are waiting.
    public var whenFull: WhenFull
    /// How long one request may take.
    public var requestTimeout: Duration
    /// How long delivered entries are kept (for status counts) before being pruned.
    public var deliveredRetention: Duration
    /// The tap log keeps at most this many rows and this much history.
    public var tapLogMaximumRows: Int
    /// How old a tap log row may get before it is pruned.
    public var tapLogMaximumAge: Duration
    /// Whether the tap log keeps the text of replies (off: only their length).
    public var recordReplyText: Bool
    /// The most requests a delivery worker has open at once (at least 1). Two entries of the same
    /// notification are never in flight together, so they reach the backend in the order they were stored
    /// (unless the first is retried).
    public var maximumConcurrentRequests: Int

    /// Options with the defaults: 20 attempts over at most 7 days, backoff from 1 s to 1 h, 10,000 waiting
    /// entries, 30 s requests, a 100,000-row / 30-day tap log without reply text, 8 requests at once.
    public init(
        maximumAttempts: Int = 20, timeToLive: Duration = .seconds(7 * 24 * 3600), baseBackoff: Duration = .seconds(1),
        maximumBackoff: Duration = .seconds(3600), capacity: Int = 10_000, whenFull: WhenFull = .rejectNew,
        requestTimeout: Duration = .seconds(30), deliveredRetention: Duration = .seconds(7 * 24 * 3600),
        tapLogMaximumRows: Int = 100_000, tapLogMaximumAge: Duration = .seconds(30 * 24 * 3600),
        recordReplyText: Bool = false, maximumConcurrentRequests: Int = 8
    ) {
        self.maximumAttempts = maximumAttempts
        self.timeToLive = timeToLive
        self.baseBackoff = baseBackoff
        self.maximumBackoff = maximumBackoff
        self.capacity = capacity
        self.whenFull = whenFull
        self.requestTimeout = requestTimeout
        self.deliveredRetention = deliveredRetention
        self.tapLogMaximumRows = tapLogMaximumRows
        self.tapLogMaximumAge = tapLogMaximumAge
        self.recordReplyText = recordReplyText
        self.maximumConcurrentRequests = maximumConcurrentRequests
    }
}
