/// What an ``APNsStatistics`` counted, at one moment.
public struct APNsCounters: Sendable, Hashable {
    /// Notification attempts handed to the transport (retries included).
    public var sent = 0
    /// Notifications APNs accepted.
    public var delivered = 0
    /// Final refusals by APNs reason.
    public var rejectedByReason: [String: Int] = [:]
    /// Notifications that ended without an answer to go by, by cause (``APNsError/Kind``).
    public var failedByCause: [String: Int] = [:]
    /// Notification attempts that were retries.
    public var retried = 0
    /// Time from a notification's hand-over to its final result (delivered, rejected or failed).
    public var latency = APNsLatencyHistogram()
    /// Answers to channel management requests and broadcasts, by kind (`channel`, `broadcast`) and status.
    public var requestsByKindAndStatus: [String: Int] = [:]
    /// Retries of channel management requests and broadcasts.
    public var requestsRetried = 0
    /// Connections that finished their handshake.
    public var connectionsOpened = 0
    /// Open connections that closed (after a GOAWAY, an error, or at shutdown).
    public var connectionsClosed = 0
    /// Connection attempts that failed before carrying a stream.
    public var connectionsFailed = 0
    /// GOAWAY frames received.
    public var goaways = 0
    /// Provider tokens made, the first included.
    public var tokensMinted = 0
    /// Provider tokens made to replace an older one.
    public var tokenRefreshes = 0

    /// All counts at zero.
    public init() {}

    /// Final refusals of every reason.
    public var rejected: Int { rejectedByReason.values.reduce(0, +) }
    /// Notifications that failed, whatever the cause.
    public var failed: Int { failedByCause.values.reduce(0, +) }

    /// The counters as `name value` lines, in a fixed order (reasons and causes sorted), for people.
    public var lines: [String] {
        var lines = [
            "sent \(sent)", "delivered \(delivered)", "rejected \(rejected)",
        ]
        lines += rejectedByReason.sorted { $0.key < $1.key }.map { "rejected.\($0.key) \($0.value)" }
        lines.append("failed \(failed)")
        lines += failedByCause.sorted { $0.key < $1.key }.map { "failed.\($0.key) \($0.value)" }
        lines.append("retried \(retried)")
        lines += requestsByKindAndStatus.sorted { $0.key < $1.key }.map { "requests.\($0.key) \($0.value)" }
        if requestsRetried > 0 { lines.append("requests.retried \(requestsRetried)") }
        lines += [
            "latency.count \(latency.count)",
            "latency.mean_ms \(APNsLatencyHistogram.format(latency.meanMilliseconds))",
            "latency.max_ms \(APNsLatencyHistogram.format(latency.maximumMilliseconds))",
            "latency.p50_ms_at_most \(APNsLatencyHistogram.format(latency.upperBound(ofQuantile: 0.5)))",
            "latency.p99_ms_at_most \(APNsLatencyHistogram.format(latency.upperBound(ofQuantile: 0.99)))",
            "connections.opened \(connectionsOpened)", "connections.closed \(connectionsClosed)",
            "connections.failed \(connectionsFailed)", "connections.goaway \(goaways)",
            "tokens.minted \(tokensMinted)", "tokens.refreshed \(tokenRefreshes)",
        ]
        return lines
    }
}
