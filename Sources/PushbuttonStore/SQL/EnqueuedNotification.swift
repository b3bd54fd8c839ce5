import Foundation

/// A notification waiting for the intake's group commit (``GroupCommit``): what
/// ``SQLGatewayStore/enqueue(_:deliveries:idempotency:now:)`` was given.
struct EnqueuedNotification: Sendable {
    var spec: NotificationSpec
    var deliveries: [NewDelivery]
    var idempotency: IdempotencyKey?
    var now: Date
}
