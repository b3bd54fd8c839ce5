import Foundation

/// What a webhook relay does with the events it leased (``GatewayStore/leaseWebhookEvents(limit:duration:now:)``,
/// ``EventStreamStore/leaseStreamEvents(limit:duration:now:)``): the events live in the store, so on PostgreSQL
/// any process takes over what a dead one held once its lease runs out, as with deliveries.
public protocol EventLeaseStore: Sendable {
    /// Holds `lease`'s events until `until` (a post slower than the lease); returns how many are still held
    /// (0: the lease ran out and was taken over).
    @discardableResult
    func renewEventLease(_ lease: EventLease, until: Date) throws(StoreError) -> Int

    /// Removes the events `ids` held under `lease` (posted, or given up); returns how many it removed: an event
    /// whose lease moved to another process is left to it.
    @discardableResult
    func finishEvents(_ ids: [Int64], lease: EventLease) throws(StoreError) -> Int

    /// Gives the events `ids` held under `lease` back, claimable again from `at`. With `failed` the try counts
    /// as a failed post, and an event with `maximumAttempts` failed posts is removed instead; returns the ids
    /// removed that way.
    func retryEvents(_ ids: [Int64], lease: EventLease, at: Date, failed: Bool, maximumAttempts: Int)
        throws(StoreError) -> [Int64]
}
