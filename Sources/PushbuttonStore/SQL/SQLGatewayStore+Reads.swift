import Foundation

/// Reads: a notification's or campaign's record, the queue's depth, a ping.
extension SQLGatewayStore {
    public func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord? {
        try read { connection throws(StoreError) in
            try record(id: id, limit: limit, after: after, connection)
        }
    }

    func record(id: String, limit: Int, after: Int64, _ connection: any SQLConnection) throws(StoreError)
        -> NotificationRecord?
    {
        guard
            let row = try connection.query(
                "SELECT \(Self.specColumns) FROM notifications WHERE id = ?", [.text(id)]
            ).first
        else { return nil }
        let (spec, state) = Self.spec(row)
        var counts: [DeliveryState: Int] = [:]
        if spec.kind == .campaign {
            counts = try CampaignTallies.counts(of: id, connection)
        } else {
            for count in try connection.query(
                "SELECT state, COUNT(*) FROM deliveries WHERE notification_id = ? GROUP BY state", [.text(id)])
            {
                if let state = DeliveryState(rawValue: count[0].text ?? "") {
                    counts[state] = Int(count[1].integer ?? 0)
                }
            }
            // Queued in their rows, held by a lease in their batch.
            let held = counts[.queued] == nil ? 0 : try QueueBatches.held(id, connection)
            if held > 0 {
                counts[.queued] = (counts[.queued] ?? 0) - held
                counts[.leased, default: 0] += held
                if counts[.queued] == 0 { counts[.queued] = nil }
            }
        }
        var deliveries =
            limit <= 0
            ? []
            : try connection.query(
                """
                SELECT id, token, apns_id, state, status, reason, attempts, leases, finished_at, unregistered_at
                FROM deliveries WHERE notification_id = ? AND id > ? ORDER BY id LIMIT ?
                """, [.text(id), .integer(after), .integer(Int64(limit))]
            ).map { row in
                DeliveryRecord(
                    id: row[0].integer ?? 0, token: row[1].text ?? "", apnsID: row[2].text ?? "",
                    state: DeliveryState(rawValue: row[3].text ?? "") ?? .queued, status: row[4].integer.map(Int.init),
                    reason: row[5].text, attempts: Int(row[6].integer ?? 0), leases: Int(row[7].integer ?? 0),
                    finishedAt: Self.date(row[8]), unregisteredAt: Self.date(row[9]))
            }
        // Those without an outcome are leased while their batch is held, and leased as often as it was.
        if let low = deliveries.first?.id, let high = deliveries.last?.id,
            deliveries.contains(where: { !$0.state.isFinal })
        {
            let batches = try QueueBatches.overlapping(id, low: low, high: high, connection)
            for index in deliveries.indices where !deliveries[index].state.isFinal {
                let delivery = deliveries[index]
                guard
                    let batch = batches.first(where: {
                        ($0[0].integer ?? .max) <= delivery.id && delivery.id <= ($0[1].integer ?? .min)
                    })
                else { continue }
                if batch[2] != .null { deliveries[index].state = .leased }
                deliveries[index].leases = max(delivery.leases, Int(batch[3].integer ?? 0))
            }
        }
        var record = NotificationRecord(spec: spec, state: state, counts: counts, deliveries: deliveries)
        if let skipped = counts[.skipped], skipped > 0 {
            record.skippedReasons = try skippedReasons(of: spec, skipped: skipped, connection)
        }
        return record
    }

    /// Why recipients were skipped: a campaign's over a frequency cap from its tallies (the rest were inactive
    /// devices at intake), a notification's few from their rows.
    private func skippedReasons(of spec: NotificationSpec, skipped: Int, _ connection: any SQLConnection)
        throws(StoreError) -> [String: Int]
    {
        var reasons: [String: Int] = [:]
        if spec.kind == .campaign {
            let capped = try CampaignTallies.frequencyCapped(of: spec.id, connection)
            reasons[FrequencyCap.skippedReason] = capped
            reasons[NotificationRecord.deviceInactiveReason] = skipped - capped
        } else {
            for row in try connection.query(
                "SELECT reason, COUNT(*) FROM deliveries WHERE notification_id = ? AND state = 'skipped' GROUP BY reason",
                [.text(spec.id)])
            {
                let reason =
                    row[0].text == FrequencyCap.skippedReason
                    ? FrequencyCap.skippedReason : NotificationRecord.deviceInactiveReason
                reasons[reason, default: 0] += Int(row[1].integer ?? 0)
            }
        }
        return reasons.filter { $0.value > 0 }
    }

    public func queueDepth() throws(StoreError) -> Int {
        try read { connection throws(StoreError) in
            Int(
                try connection.query(QueueBatches.depth).first?[0].integer ?? 0)
        }
    }

    public func ping() throws(StoreError) {
        try read { connection throws(StoreError) in _ = try connection.query("SELECT 1") }
    }
}
