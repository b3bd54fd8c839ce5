import PushbuttonSupport

/// An observer that counts: sent, delivered, rejected by reason, failed by cause, retried, latency,
/// connections opened, closed and sent away, provider tokens made. `pushbutton send --stats` prints them.
///
/// ```swift
/// let statistics = APNsStatistics()
/// let client = try APNsClient(environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID,
///                             observer: statistics)
/// // … send …
/// print(statistics.counters.delivered, statistics.counters.rejectedByReason)
/// ```
public final class APNsStatistics: APNsObserver {
    private let state = Locked(APNsCounters())

    /// Statistics with every count at zero.
    public init() {}

    /// The counts so far.
    public var counters: APNsCounters { state.withLock { $0 } }

    /// Counts `event`.
    public func observe(_ event: APNsEvent) {
        state.withLock { counters in
            switch event {
            case .sent(_, _, let attempt):
                counters.sent += 1
                if attempt > 1 { counters.retried += 1 }
            case .delivered(_, _, _, let latency):
                counters.delivered += 1
                counters.latency.record(latency)
            case .rejected(_, _, _, let reason, let latency):
                counters.rejectedByReason[reason.rawValue, default: 0] += 1
                counters.latency.record(latency)
            case .failed(_, _, let cause, _, let latency):
                counters.failedByCause[cause.rawValue, default: 0] += 1
                counters.latency.record(latency)
            case .retried:
                break  // counted by the attempt's `sent`, which says it is a retry
            case .requestAnswered(let kind, let status, _, _):
                counters.requestsByKindAndStatus["\(kind.rawValue).\(status)", default: 0] += 1
            case .requestRetried:
                counters.requestsRetried += 1
            case .connectionOpened: counters.connectionsOpened += 1
            case .connectionClosed: counters.connectionsClosed += 1
            case .connectionFailed: counters.connectionsFailed += 1
            case .goaway: counters.goaways += 1
            case .tokenMinted(_, let isRefresh):
                counters.tokensMinted += 1
                if isRefresh { counters.tokenRefreshes += 1 }
            }
        }
    }
}
