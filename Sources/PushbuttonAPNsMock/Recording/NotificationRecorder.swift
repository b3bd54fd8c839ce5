import PushbuttonReceiver

/// Keeps the accepted notifications (up to a limit, so a long benchmark does not grow without bound),
/// the counters, and what happened to each `apns-id`, which the soak test's invariants are checked against.
final class NotificationRecorder: Sendable {
    private struct State {
        var notifications: [RecordedNotification] = []
        var counters = MockCounters()
        /// Per `apns-id`: acceptances, and whether a final error was given.
        var outcomes: [String: Outcome] = [:]
    }

    private struct Outcome {
        var acceptances = 0
        var finallyRejected = false
    }

    /// Statuses APNs' documentation says not to retry: the 4xx apart from 429.
    private static func isFinal(_ status: Int) -> Bool { (400..<500).contains(status) && status != 429 }

    let limit: Int
    private let state = Locked(State())

    init(limit: Int) { self.limit = limit }

    var notifications: [RecordedNotification] { state.withLock { $0.notifications } }
    var counters: MockCounters { state.withLock { $0.counters } }

    func connectionOpened() { state.withLock { $0.counters.connections += 1 } }

    func fault(_ kind: String) { state.withLock { $0.counters.faults[kind, default: 0] += 1 } }

    /// Counts a request, and a retry of an `apns-id` that had already been refused for good.
    func request(apnsID: String?) {
        state.withLock { state in
            state.counters.requests += 1
            if let apnsID, state.outcomes[apnsID]?.finallyRejected == true {
                state.counters.retriesAfterFinalError += 1
            }
        }
    }

    func rejected(_ response: MockResponse, apnsID: String?) {
        state.withLock { state in
            state.counters.rejectedByReason[response.reason ?? "\(response.status)", default: 0] += 1
            guard let apnsID, Self.isFinal(response.status), state.outcomes.count < limit else { return }
            state.outcomes[apnsID, default: Outcome()].finallyRejected = true
        }
    }

    func accepted(_ notification: RecordedNotification) {
        state.withLock { state in
            state.counters.accepted += 1
            guard state.notifications.count < limit else { return }
            state.notifications.append(notification)
            let previous = state.outcomes[notification.apnsID, default: Outcome()]
            if previous.acceptances > 0 { state.counters.duplicateAcceptances += 1 }
            state.outcomes[notification.apnsID] = Outcome(
                acceptances: previous.acceptances + 1, finallyRejected: previous.finallyRejected)
        }
    }

    func reset() { state.withLock { $0 = State() } }
}
