/// What storing one batch of taps did.
public struct TapBatchResult: Sendable, Hashable {
    /// Events stored for the first time.
    public var accepted: Int
    /// Events whose id was stored before (or repeated within the batch): not stored again.
    public var duplicates: Int

    /// A result of `accepted` new events and `duplicates` repeated ones.
    public init(accepted: Int, duplicates: Int) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}
