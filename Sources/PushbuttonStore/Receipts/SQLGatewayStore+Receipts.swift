import Foundation
import Pushbutton

extension SQLGatewayStore: ReceiptStore {
    /// Receipts per multi-row INSERT (8 values each).
    static let receiptsPerStatement = 200

    /// Stores the batch in one transaction, 200 receipts per INSERT; a known event id inserts nothing. With
    /// the stream's `notification.delivered` on, each new receipt raises one in the same transaction.
    public func record(receipts: [ReceiptRecord], now: Date) throws(StoreError) -> TapBatchResult {
        guard !receipts.isEmpty else { return TapBatchResult(accepted: 0, duplicates: 0) }
        let raising = streamedEvents.contains(.delivered)
        return try pool.with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> TapBatchResult in
                var accepted = 0
                var start = 0
                while start < receipts.count {
                    let end = min(start + Self.receiptsPerStatement, receipts.count)
                    var values: [SQLValue] = []
                    values.reserveCapacity((end - start) * 8)
                    for receipt in receipts[start..<end] {
                        values += [
                            .text(receipt.app), .text(receipt.eventID), .text(receipt.token),
                            .text(receipt.notificationID), receipt.campaignID.sql, receipt.variant.sql,
                            .real(receipt.receivedAt.timeIntervalSince1970), .real(now.timeIntervalSince1970),
                        ]
                    }
                    // A repeated id, stored before or earlier in the batch, inserts nothing: `changes` counts the new.
                    let row = "(?, ?, ?, ?, ?, ?, ?, ?)"
                    let inserted = try connection.run(
                        """
                        INSERT INTO display_receipts (app, event_id, token, notification_id, campaign_id, variant,
                            received_at, stored_at)
                        VALUES \(Array(repeating: row, count: end - start).joined(separator: ", "))
                        ON CONFLICT (app, event_id) DO NOTHING
                        \(raising ? "RETURNING app, token, notification_id, campaign_id, variant, received_at, event_id" : "")
                        """, values)
                    accepted += raising ? inserted.rows.count : inserted.changes
                    if raising { try raiseDelivered(inserted.rows, now: now, connection) }
                    start = end
                }
                return TapBatchResult(accepted: accepted, duplicates: receipts.count - accepted)
            }
        }
    }

    /// Raises `notification.delivered` for newly stored receipts (`rows`: app, token, notification_id,
    /// campaign_id, variant, received_at, event_id) of notifications the app sent, once per notification and
    /// device: not when an earlier receipt of them is stored (or, in one batch, one with a smaller event id).
    private func raiseDelivered(_ rows: [[SQLValue]], now: Date, _ connection: any SQLConnection)
        throws(StoreError)
    {
        for row in rows {
            guard let app = row[0].text, let token = row[1].text, let notification = row[2].text else { continue }
            var detail: [String: JSONValue] = [
                "app": .string(app), "token": .string(token), "notification_id": .string(notification),
            ]
            if let campaign = row[3].text { detail["campaign_id"] = .string(campaign) }
            if let variant = row[4].text { detail["variant"] = .string(variant) }
            if let received = Self.date(row[5]) {
                detail["received_at"] = .integer(Int64((received.timeIntervalSince1970 * 1000).rounded()))
            }
            try connection.query(
                """
                INSERT INTO stream_events (type, event_key, detail, created_at)
                SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM notifications n WHERE n.id = ? AND n.app = ?)
                    AND NOT EXISTS (
                        SELECT 1 FROM display_receipts r WHERE r.app = ? AND r.notification_id = ? AND r.token = ?
                            AND r.event_id <> ? AND (r.stored_at < ? OR r.event_id < ?))
                ON CONFLICT (event_key) DO NOTHING
                """,
                [
                    .text(StreamEvent.Kind.delivered.rawValue),
                    .text("\(StreamEvent.Kind.delivered.rawValue):\(app):\(notification):\(token)"),
                    .text(String(decoding: JSONWriter.compact(.object(detail)), as: UTF8.self)), Self.time(now),
                    .text(notification), .text(app), .text(app), .text(notification), .text(token), row[6],
                    .real(now.timeIntervalSince1970), row[6],
                ])
        }
    }

    /// One count on a reading connection, scoped as the taps are.
    public func receivedCount(_ query: StatsQuery) throws(StoreError) -> Int {
        let joined = "EXISTS (SELECT 1 FROM notifications n WHERE n.id = r.notification_id AND n.app = r.app)"
        var sql = "SELECT COUNT(*) FROM display_receipts r WHERE r.app = ? AND \(joined)"
        var values: [SQLValue] = [.text(query.app)]
        switch query.scope {
        case .app:
            break
        case .notification(let id):
            sql += " AND r.notification_id = ?"
            values.append(.text(id))
        case .category(let category):
            sql +=
                " AND r.notification_id IN (SELECT c.notification_id FROM notification_categories c"
                + " WHERE c.app = ? AND c.category = ?)"
            values += [.text(query.app), .text(category)]
        }
        if let from = query.from {
            sql += " AND r.received_at >= ?"
            values.append(.real(from.timeIntervalSince1970))
        }
        if let to = query.to {
            sql += " AND r.received_at < ?"
            values.append(.real(to.timeIntervalSince1970))
        }
        return try readers.with { connection throws(StoreError) -> Int in
            Int(try connection.query(sql, values).first?[0].integer ?? 0)
        }
    }
}
