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
        var tally = SentTally()
    }

    /// The leased rows, in the order of the notifications.
    let deliveries: [LeasedDelivery]
    /// Each notification's position, by apns-id (unique within a lease: the store gives each row its own).
    private let positions: [UUID: Int]
    private let state: Locked<State>

    /// `notifications[i]` is `deliveries[i]`'s, `nil` for a row not to send (its outcome is not this batch's).
    init(deliveries: [LeasedDelivery], notifications: [APNsNotification?]) {
        precondition(deliveries.count == notifications.count, "one slot per leased row")
        self.deliveries = deliveries
        var positions: [UUID: Int] = [:]
        positions.reserveCapacity(notifications.count)
        for (index, notification) in notifications.enumerated() {
            if let apnsID = notification?.apnsID { positions[apnsID] = index }
        }
        self.positions = positions
        state = Locked(
            State(notifications: notifications, outcomes: Array(repeating: nil, count: notifications.count)))
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
        guard let index = positions[notification.apnsID] else { return false }
        return state.withLock { state in
            guard state.outcomes[index] == nil else { return false }
            state.outcomes[index] = (outcome, attempts)
            state.tally.add(outcome, latency: latency)
            return true
        }
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
