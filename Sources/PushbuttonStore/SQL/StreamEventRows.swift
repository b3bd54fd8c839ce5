import Foundation
import Pushbutton

/// The stream events one outcome transaction raises, inserted in that transaction with multi-row INSERTs: the
/// per-recipient ones as (type, recipient row id), their fields read from the recipient's row when claimed, so
/// an outcome writes one small row more per event type it raises and nothing when the stream is off.
struct StreamEventRows {
    let kinds: Set<StreamEvent.Kind>
    private let time: SQLValue
    private var values: [SQLValue] = []

    init(kinds: Set<StreamEvent.Kind>, now: Date) {
        self.kinds = kinds
        self.time = SQLGatewayStore.time(now)
    }

    var count: Int { values.count / 3 }

    /// Raises `kind` for the recipient `delivery` when that type is streamed.
    mutating func raise(_ kind: StreamEvent.Kind, delivery: Int64) {
        guard kinds.contains(kind) else { return }
        values += [.text(kind.rawValue), .integer(delivery), time]
    }

    func write(into connection: any SQLConnection) throws(StoreError) {
        for rows in StatementShapes.chunks(count) {
            try connection.query(
                "INSERT INTO stream_events (type, delivery_id, created_at) VALUES "
                    + Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", "),
                Array(values[3 * rows.lowerBound..<3 * rows.upperBound]))
        }
    }
}
