import Foundation

extension SQLGatewayStore {
    /// Claims queued webhook events (PostgreSQL skips rows another process holds).
    public func claimWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> [WebhookEvent]
    {
        try leaseWebhookEvents(limit: limit, duration: duration, now: now).events
    }

    /// Leases queued webhook events under a new token (PostgreSQL skips rows another process holds).
    public func leaseWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<WebhookEvent>
    {
        let lease = EventLease(queue: .webhook, token: UUID().uuidString.lowercased())
        return try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> LeasedEvents<WebhookEvent> in
                let claimed = try claimEvents(
                    lease, returning: "delivery_id, type, created_at, attempts", limit: limit, duration: duration,
                    now: now, connection)
                let failures = Self.failures(claimed, column: 3)
                guard !claimed.isEmpty else { return LeasedEvents(lease: lease, events: [], failures: [:]) }
                var byID: [Int64: [SQLValue]] = [:]
                for chunk in stride(from: 0, to: claimed.count, by: Self.rowsPerStatement) {
                    var ids = claimed[chunk..<min(chunk + Self.rowsPerStatement, claimed.count)].map { $0[0] }
                    ids += Array(repeating: ids[ids.count - 1], count: StatementShapes.padded(ids.count) - ids.count)
                    for row in try connection.query(
                        """
                        SELECT id, app, token, notification_id, apns_id, status, reason, attempts, unregistered_at
                        FROM deliveries WHERE id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
                        """, ids)
                    {
                        if let id = row[0].integer { byID[id] = row }
                    }
                }
                let events = claimed.compactMap { event -> WebhookEvent? in
                    guard let id = event[0].integer, let row = byID[id],
                        let kind = WebhookEvent.Kind(rawValue: event[1].text ?? "")
                    else { return nil }
                    let at = Self.date(event[2]) ?? now
                    return WebhookEvent(
                        id: id, kind: kind, app: row[1].text ?? "", token: row[2].text ?? "",
                        notificationID: row[3].text ?? "", apnsID: row[4].text ?? "",
                        status: row[5].integer.map(Int.init), reason: row[6].text, attempts: Int(row[7].integer ?? 0),
                        unregisteredAt: kind == .deviceUnregistered ? (Self.date(row[8]) ?? at) : nil, at: at)
                }.sorted { $0.id < $1.id }
                return LeasedEvents(lease: lease, events: events, failures: failures)
            }
        }
    }

    /// Removes webhook events that were handed on, in chunks.
    public func finishWebhookEvents(_ ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try with { connection throws(StoreError) in
            var start = 0
            while start < ids.count {
                let end = min(start + Self.rowsPerStatement, ids.count)
                var chunk = ids[start..<end].map { SQLValue.integer($0) }
                chunk += Array(
                    repeating: chunk[chunk.count - 1], count: StatementShapes.padded(chunk.count) - chunk.count)
                try connection.query(
                    "DELETE FROM webhook_events WHERE delivery_id IN ("
                        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")", chunk)
                start = end
            }
        }
    }
}
