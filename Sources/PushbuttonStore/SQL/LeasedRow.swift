/// One recipient a lease took (``QueueBatches/lease(limit:token:until:now:dialect:_:)``): its columns as
/// values, not an array of them per row — the result's row arrays are freed where they were read, and the
/// notification's id is one string its batch's rows share.
struct LeasedRow {
    var id: Int64
    /// The batch it was taken from (quiet hours put a held recipient back by rewriting its batch).
    var batch: Int64
    var notification: String
    var token: String
    var apnsID: String
    /// The batch's lease count, this lease included.
    var leases: Int
    /// Whether the recipient was counted queued (a free batch) rather than leased (an expired lease's): the
    /// campaign tallies move only the first.
    var wasQueued: Bool
    /// The experiment's variant the row was sent in its test (its payload the variant's shared one).
    var variant: String? = nil
    /// The `"localized"` language the row was sent (its payload the language's shared one); `nil`: the default text.
    var language: String? = nil
}
