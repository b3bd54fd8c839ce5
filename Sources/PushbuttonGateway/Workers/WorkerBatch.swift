import Foundation
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

/// One leased batch of one app on its way through the sender's direct bulk path: the sender polls the
/// notifications from it on the connection's thread, and each answer's outcome is written into the batch
/// there too, by the recipient's position — no task between an answer and its outcome, no copy of the
/// leased row per answer.
final class WorkerBatch: SynchronousNotificationSource {
    private struct State {
        /// Moved out as they are handed out (no copy, so no retain of each one's strings and payload).
        var notifications: [APNsNotification?]
        var next = 0
        var outcomes: [(outcome: DeliveryOutcome, attempts: Int)?]
        /// Positions of the notifications that never reached APNs: given back to the queue, not recorded.
        var held: [Int] = []
        /// Notifications whose tries never reached APNs: the held, and those failed as expired meanwhile.
        var unreachable = 0
        var tally = SentTally()
    }

    /// The leased rows, in the order of the notifications.
    let deliveries: [LeasedDelivery]
    /// Each slot's apns-id (nil for a row not sent), to check the position a notification carries back.
    private let apnsIDs: [UUID?]
    private let state: Locked<State>

    /// `notifications[i]` is `deliveries[i]`'s, `nil` for a row not to send (its outcome is not this batch's).
    init(deliveries: [LeasedDelivery], notifications: consuming [APNsNotification?]) {
        precondition(deliveries.count == notifications.count, "one slot per leased row")
        self.deliveries = deliveries
        // Each notification carries its position (1-based) to its answer: no table by apns-id to fill and
        // look up, per batch and per answer. Numbered in place (the array is the batch's, consumed).
        for index in notifications.indices { notifications[index]?.inputLine = index + 1 }
        apnsIDs = notifications.map { $0?.apnsID }
        let count = notifications.count
        state = Locked(State(notifications: notifications, outcomes: Array(repeating: nil, count: count)))
    }

    func poll() -> NotificationPoll {
        state.withLock { state in
            while state.next < state.notifications.count {
                defer { state.next += 1 }
                if let notification = state.notifications[state.next].take() { return .notification(notification) }
            }
            return .finished
        }
    }

    /// Every notification is there from the start: nothing arrives later.
    func onAvailable(_ handler: @escaping @Sendable () -> Void) {}

    /// Keeps the outcome of `notification`, and counts it (`latency`: seconds from the lease to APNs' final
    /// answer) in ``tally``; `false` for a notification this batch did not hand out, or one it already has the
    /// outcome of.
    @discardableResult
    func finish(_ notification: APNsNotification, outcome: DeliveryOutcome, attempts: Int, latency: Double = 0)
        -> Bool
    {
        guard let index = position(of: notification) else { return false }
        return state.withLock { state in
            guard state.outcomes[index] == nil else { return false }
            state.outcomes[index] = (outcome, attempts)
            state.tally.add(outcome, latency: latency, attempts: attempts)
            return true
        }
    }

    /// Keeps `notification` to give back to the queue (its last tries never reached APNs): no outcome, no
    /// attempt recorded. `attempts` that went out before (timed out, lost with their connection) are counted
    /// as inconclusive: APNs may have received them.
    func hold(_ notification: APNsNotification, attempts: Int = 0) {
        guard let index = position(of: notification) else { return }
        state.withLock { state in
            guard state.outcomes[index] == nil else { return }
            state.held.append(index)
            state.unreachable += 1
            state.tally.inconclusive += max(0, attempts)
        }
    }

    /// Counts a notification whose last tries never reached APNs but which ends with an outcome (expired
    /// meanwhile), and the `attempts` that went out before them (inconclusive, as for ``hold(_:attempts:)``).
    func countUnreachable(attempts: Int = 0) {
        state.withLock { state in
            state.unreachable += 1
            state.tally.inconclusive += max(0, attempts)
        }
    }

    /// Notifications whose tries never reached APNs (held or expired), for the app's ``APNsCircuit``.
    var unreachable: Int { state.withLock { $0.unreachable } }

    /// The rows kept by ``hold(_:)``.
    func held() -> [LeasedDelivery] {
        state.withLock { state in state.held.map { deliveries[$0] } }
    }

    /// Where `notification` is in the batch: the position it carries, when its apns-id is that slot's (the
    /// sender's answers), else found by apns-id (a notification from elsewhere, as tests hand in).
    private func position(of notification: APNsNotification) -> Int? {
        let carried = notification.inputLine - 1
        if apnsIDs.indices.contains(carried), apnsIDs[carried] == notification.apnsID { return carried }
        return apnsIDs.firstIndex(of: notification.apnsID)
    }

    /// The outcomes kept so far, counted for ``GatewayMetrics``.
    var tally: SentTally { state.withLock { $0.tally } }

    /// The outcomes kept, in lease order (a notification without an answer, which the sender never
    /// leaves, would be missing: its lease then runs out and it is sent again with the same apns-id).
    func completed() -> [CompletedDelivery] {
        state.withLock { state in
            var completed: [CompletedDelivery] = []
            completed.reserveCapacity(deliveries.count)
            for (index, kept) in state.outcomes.enumerated() {
                guard let kept else { continue }
                completed.append(CompletedDelivery(deliveries[index], outcome: kept.outcome, attempts: kept.attempts))
            }
            return completed
        }
    }
}
