import Foundation
import PushbuttonAPNs
import PushbuttonSupport

/// Keeps the accepted notifications (up to a limit, so a long benchmark does not grow without bound),
/// the counters, and what happened to each `apns-id`, which the soak test's invariants are checked against.
final class NotificationRecorder: Sendable {
    private struct State {
        var notifications: [RecordedNotification] = []
        var counters = MockCounters()
        /// Per `apns-id` (as 16 bytes, so a million cost tens of megabytes, not hundreds): acceptances,
        /// and whether a final error was given.
        var outcomes: [UUID: Outcome] = [:]
    }

    private struct Outcome {
        var acceptances = 0
        var finallyRejected = false
    }

    /// An error APNs' documentation says not to retry: what ``RetryPolicy`` gives up on.
    private static func isFinal(_ response: MockResponse) -> Bool {
        response.status != 200
            && !RetryPolicy.isRetryable(status: response.status, reason: response.reason.map(APNsReason.init))
    }

    /// How many notifications are kept for inspection.
    let limit: Int
    /// How many `apns-id`s are followed for the duplicate and retry-after-final-error counters.
    let trackingLimit: Int
    private let state = Locked(State())

    init(limit: Int, trackingLimit: Int) {
        self.limit = limit
        self.trackingLimit = trackingLimit
    }

    var notifications: [RecordedNotification] { state.withLock { $0.notifications } }
    var counters: MockCounters { state.withLock { $0.counters } }

    func connectionOpened() { state.withLock { $0.counters.connections += 1 } }

    func ping() { state.withLock { $0.counters.pings += 1 } }

    func fault(_ kind: String) { state.withLock { $0.counters.faults[kind, default: 0] += 1 } }

    func silencesEnded(_ count: Int) { state.withLock { $0.counters.silencesEnded += count } }

    /// Counts a request, and a retry of an `apns-id` that had already been refused for good.
    func request(apnsID: String?) {
        state.withLock { state in
            state.counters.requests += 1
            if let id = apnsID.flatMap(UUIDText.parse), state.outcomes[id]?.finallyRejected == true {
                state.counters.retriesAfterFinalError += 1
            }
        }
    }

    func rejected(_ response: MockResponse, apnsID: String?) {
        state.withLock { state in
            state.counters.rejectedByReason[response.reason ?? "\(response.status)", default: 0] += 1
            guard let id = apnsID.flatMap(UUIDText.parse), Self.isFinal(response),
                state.outcomes.count < trackingLimit
            else { return }
            state.outcomes[id, default: Outcome()].finallyRejected = true
        }
    }

    func accepted(_ notification: RecordedNotification) {
        state.withLock { state in
            state.counters.accepted += 1
            if state.notifications.count < limit { state.notifications.append(notification) }
            guard let id = UUIDText.parse(notification.apnsID) else { return }
            if state.outcomes[id] == nil && state.outcomes.count >= trackingLimit { return }
            if state.outcomes[id, default: Outcome()].acceptances > 0 { state.counters.duplicateAcceptances += 1 }
            state.outcomes[id, default: Outcome()].acceptances += 1
        }
    }

    func reset() { state.withLock { $0 = State() } }
}
