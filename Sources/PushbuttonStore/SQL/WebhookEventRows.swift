import Foundation

/// The webhook events one transaction raises, inserted in that transaction with multi-row INSERTs (a
/// recipient has at most one: another for the same delivery inserts nothing).
struct WebhookEventRows {
    /// Whether events are kept (the gateway relays webhooks); when not, ``raise(_:delivery:)`` keeps nothing.
    let enabled: Bool
    private let time: SQLValue
    private var values: [SQLValue] = []

    init(enabled: Bool, now: Date) {
        self.enabled = enabled
        self.time = SQLGatewayStore.time(now)
    }

    /// The events raised.
    var count: Int { values.count / 3 }

    /// Raises an event of `kind` for the recipient `delivery` (when events are kept).
    mutating func raise(_ kind: WebhookEvent.Kind, delivery: Int64) {
        guard enabled else { return }
        values += [.integer(delivery), .text(kind.rawValue), time]
    }

    /// Inserts the events raised, a chunk per statement.
    func write(into connection: any SQLConnection) throws(StoreError) {
        for rows in StatementShapes.chunks(count) {
            try connection.query(
                "INSERT INTO webhook_events (delivery_id, type, created_at) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", ")
                    + " ON CONFLICT (delivery_id) DO NOTHING",
                Array(values[3 * rows.lowerBound..<3 * rows.upperBound]))
        }
    }
}
