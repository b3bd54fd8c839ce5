import Foundation
import PushbuttonAPNs
import PushbuttonStore
import Synchronization

/// One leased batch of one app on its way through the sender's direct bulk path: the sender polls the
/// notifications from it on the connection's thread, and each answer's outcome is written into the batch
/// there too, by the recipient's position — no task between an answer and its outcome, no copy of the
/// leased row per answer.
final class WorkerBatch: SynchronousNotificationSource {
    private struct State {
        var next = 0
        var outcomes: [(outcome: DeliveryOutcome, attempts: Int)?]
    }

    /// The leased rows, in the order of ``notifications``.
    let deliveries: [LeasedDelivery]
    let notifications: [APNsNotification]
    /// Each notification's position, by apns-id (unique within a lease: the store gives each row its own).
    private let positions: [UUID: Int]
    private let state: Mutex<State>

    init(deliveries: [LeasedDelivery], notifications: [APNsNotification]) {
        precondition(deliveries.count == notifications.count, "one notification per leased row")
        self.deliveries = deliveries
        self.notifications = notifications
        var positions: [UUID: Int] = [:]
        positions.reserveCapacity(notifications.count)
        for (index, notification) in notifications.enumerated() { positions[notification.apnsID] = index }
        self.positions = positions
        state = Mutex(State(outcomes: Array(repeating: nil, count: notifications.count)))
    }

    func poll() -> NotificationPoll {
        state.withLock { state in
            guard state.next < notifications.count else { return .finished }
            defer { state.next += 1 }
            return .notification(notifications[state.next])
        }
    }

    /// Every notification is there from the start: nothing arrives later.
    func onAvailable(_ handler: @escaping @Sendable () -> Void) {}

    /// Keeps the outcome of `notification`; `false` for a notification this batch did not hand out.
    @discardableResult
    func finish(_ notification: APNsNotification, outcome: DeliveryOutcome, attempts: Int) -> Bool {
        guard let index = positions[notification.apnsID] else { return false }
        state.withLock { $0.outcomes[index] = (outcome, attempts) }
        return true
    }

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
