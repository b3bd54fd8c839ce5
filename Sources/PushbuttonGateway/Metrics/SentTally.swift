import PushbuttonStore

/// One leased batch's final outcomes, counted where they arrive and added to ``GatewayMetrics`` once per
/// batch: the process-wide lock is taken once per batch, not once per recipient.
struct SentTally: Sendable, Hashable {
    var delivered = 0
    /// By APNs' reason.
    var rejected: [String: Int] = [:]
    var failed = 0
    /// Per bucket of ``GatewayMetrics/bounds`` (a latency above the last bound is only in the count).
    var latencyBuckets = [Int](repeating: 0, count: GatewayMetrics.bounds.count)
    var latencySum = 0.0
    /// Attempts that did not settle their recipient (see ``GatewayMetrics``' `inconclusive`).
    var inconclusive = 0

    /// Every outcome counted.
    var count: Int { delivered + failed + rejected.values.reduce(0, +) }

    /// Counts `outcome`, which took `latency` seconds from the lease to APNs' final answer and `attempts`
    /// attempts: all but the answered last one of a delivered or rejected recipient, all of a failed one, did
    /// not settle it.
    mutating func add(_ outcome: DeliveryOutcome, latency: Double, attempts: Int = 1) {
        switch outcome {
        case .delivered:
            delivered += 1
            inconclusive += max(0, attempts - 1)
        case .rejected(_, let reason, _):
            rejected[reason, default: 0] += 1
            inconclusive += max(0, attempts - 1)
        case .failed:
            failed += 1
            inconclusive += max(0, attempts)
        }
        latencySum += latency
        if let index = GatewayMetrics.bounds.firstIndex(where: { latency <= $0 }) { latencyBuckets[index] += 1 }
    }
}
