/// The batches an outcome's leases hold (``QueueBatches/lock(held:dialect:_:)``'s rows) as values, asked
/// per recipient whether its lease still holds it. Recipients come in batch order: the batch that held the
/// last one is asked first, so a row costs one comparison, not one per batch of the group.
struct HeldBatches {
    private struct Batch {
        var notification: String
        var first: Int64
        var last: Int64
        var token: String
    }

    private let batches: [Batch]
    private var lastHit = 0

    init(_ rows: [[SQLValue]]) {
        batches = rows.compactMap { row in
            guard let notification = row[1].text, let first = row[2].integer, let last = row[3].integer,
                let token = row[4].text
            else { return nil }
            return Batch(notification: notification, first: first, last: last, token: token)
        }
    }

    /// Whether lease `token` holds a batch of `notification` whose range has `id` (as
    /// ``QueueBatches/holds(_:token:notification:id:)``).
    mutating func holds(token: String, notification: String, id: Int64) -> Bool {
        func matches(_ batch: Batch) -> Bool {
            batch.first <= id && id <= batch.last && batch.token == token && batch.notification == notification
        }
        if lastHit < batches.count, matches(batches[lastHit]) { return true }
        guard let index = batches.firstIndex(where: matches) else { return false }
        lastHit = index
        return true
    }
}
