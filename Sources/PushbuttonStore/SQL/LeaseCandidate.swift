/// A free due batch as an SQLite reader connection saw it, with the recipients a lease would take from it
/// (``QueueBatches/candidates(limit:now:_:)``). The writer holds it only if no lease took it since (still
/// free, its lease count unchanged: ``QueueBatches/claim(_:token:until:into:_:)``); the rows of a batch
/// change only under a lease that holds it, and a cancel removes a free batch, so its recipients are then
/// still as read.
struct LeaseCandidate {
    var id: Int64
    var notification: String
    var first: Int64
    var last: Int64
    var size: Int64
    var dueAt: SQLValue
    var leaseUntil: SQLValue
    /// The batch's lease count when read: the version the writer checks.
    var leases: Int64
    /// id, token, apns_id of its recipients without an outcome, in id order.
    var rows: [[SQLValue]]
    /// Whether the lease's limit stopped the read inside the range: the rest is split off as a batch of its own.
    var limited: Bool
}
