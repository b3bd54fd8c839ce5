import Foundation

/// A single notification's recipients leased in its intake's transaction (``LeaseHandOff``), handed to this
/// process's idle worker once that transaction has committed.
struct IntakeLease {
    var notification: String
    /// The recipients, in id order (as a lease gives them), leased until ``until``.
    var leased: [LeasedDelivery]
    var until: Date
    /// The notification's columns as a lease reads them (``NotificationHeaders``), kept at the hand-off so the
    /// outcome's recording and any later lease need not read them.
    var headers: [SQLValue]
}

extension IntakeLease {
    /// Whether a request's recipients may be leased in its intake's transaction: a single notification due
    /// now in one batch, with nothing a lease decides (a frequency cap, quiet hours, a rate) and no recipient
    /// with a due time, hold, skip or experiment variant of its own. The rest queue and wake the workers.
    static func possible(for request: EnqueuedNotification) -> Bool {
        let spec = request.spec
        return spec.kind == .notification && spec.sendAt == nil && spec.throttlePerMinute == nil
            && spec.frequencyCap == nil && spec.quietHours == nil && !request.deliveries.isEmpty
            && request.deliveries.count < min(QueueBatches.rows, SQLGatewayStore.rowsToCopy)
            && request.deliveries.allSatisfy {
                $0.dueAt == nil && $0.heldBecause == nil && $0.skippedBecause == nil && $0.variant == nil
            }
    }

    /// The recipients of `request` (their row ids by apns-id in `ids`; those in `skipped` left out) leased under
    /// `token` until `until`, built from the values committed: nothing is read back.
    init(_ request: EnqueuedNotification, ids: [String: Int64], skipped: Set<Int64>, token: String, until: Date) {
        let spec = request.spec
        let shared = LeaseHeaders(
            notificationID: spec.id, app: spec.app, topic: spec.topic, pushType: spec.pushType,
            priority: spec.priority, expiration: spec.expiration, collapseID: spec.collapseID, leaseToken: token)
        var leased: [LeasedDelivery] = []
        leased.reserveCapacity(request.deliveries.count)
        for delivery in request.deliveries {
            guard let id = ids[delivery.apnsID], !skipped.contains(id) else { continue }
            leased.append(
                LeasedDelivery(
                    id: id, token: delivery.token, apnsID: delivery.apnsID, payload: delivery.payload, leases: 1,
                    shared: shared))
        }
        leased.sort { $0.id < $1.id }
        // As the lease's SELECT reads them: the seven headers, wake_on_outcome, then no cap and no quiet hours.
        let headers: [SQLValue] =
            [
                .text(spec.app), .text(spec.topic), .text(spec.pushType), spec.priority.sql, spec.expiration.sql,
                spec.collapseID.sql, .text(spec.kind.rawValue), spec.wakesWaiters ? .integer(1) : .null,
            ] + Array(repeating: .null, count: 6)
        self.init(notification: spec.id, leased: leased, until: until, headers: headers)
    }
}
