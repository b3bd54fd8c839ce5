extension NotificationRecord {
    /// A single notification as its intake committed it (``IntakeLease/possible(for:)``): its recipients by row id
    /// (`ids`, by apns-id), queued, or leased once when `leased`, those in `skipped` skipped (their device
    /// inactive) — what a read right after the commit gives, without the read.
    init(committed request: EnqueuedNotification, ids: [String: Int64], skipped: Set<Int64>, leased: Bool) {
        let finished = SQLGatewayStore.date(SQLGatewayStore.time(request.now))
        var deliveries: [DeliveryRecord] = []
        deliveries.reserveCapacity(request.deliveries.count)
        for delivery in request.deliveries {
            guard let id = ids[delivery.apnsID] else { continue }
            let skip = skipped.contains(id)
            deliveries.append(
                DeliveryRecord(
                    id: id, token: delivery.token, apnsID: delivery.apnsID,
                    state: skip ? .skipped : leased ? .leased : .queued, status: nil,
                    reason: skip ? "DeviceInactive" : nil, attempts: 0, leases: !skip && leased ? 1 : 0,
                    finishedAt: skip ? finished : nil, unregisteredAt: nil))
        }
        deliveries.sort { $0.id < $1.id }
        var counts: [DeliveryState: Int] = [:]
        for delivery in deliveries { counts[delivery.state, default: 0] += 1 }
        self.init(spec: request.spec, state: "open", counts: counts, deliveries: deliveries)
        if !skipped.isEmpty { skippedReasons = [Self.deviceInactiveReason: skipped.count] }
    }
}
