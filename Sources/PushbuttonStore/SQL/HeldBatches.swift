/// The batches an outcome's leases hold (``QueueBatches/lock(held:dialect:_:)``'s rows) as values, asked
/// per recipient whether its lease still holds it. Recipients come in batch order: the batch that held the
/// last one is asked first, so a row costs one comparison, not one per batch of the group.
struct HeldBatches {
    private struct Batch {
        /// Its position among the rows it was made from.
        var row: Int
        var notification: String
        var first: Int64
        var last: Int64
        var token: String
    }

    private let batches: [Batch]
    private var lastHit = 0

    init(_ rows: [[SQLValue]]) {
        batches = rows.enumerated().compactMap { index, row in
            guard let notification = row[1].text, let first = row[2].integer, let last = row[3].integer,
                let token = row[4].text
            else { return nil }
            return Batch(row: index, notification: notification, first: first, last: last, token: token)
        }
    }

    /// Whether lease `token` holds a batch of `notification` whose range has `id` (as
    /// ``QueueBatches/holds(_:token:notification:id:)``).
    mutating func holds(token: String, notification: String, id: Int64) -> Bool {
        holder(token: token, notification: notification, id: id) != nil
    }

    /// The position (among the rows given) of the batch lease `token` holds with `id` of `notification`, or
    /// nil (as ``holds(token:notification:id:)``).
    mutating func holder(token: String, notification: String, id: Int64) -> Int? {
        func matches(_ batch: Batch) -> Bool {
            batch.first <= id && id <= batch.last && batch.token == token && batch.notification == notification
        }
        if lastHit < batches.count, matches(batches[lastHit]) { return batches[lastHit].row }
        guard let index = batches.firstIndex(where: matches) else { return nil }
        lastHit = index
        return batches[index].row
    }
}
