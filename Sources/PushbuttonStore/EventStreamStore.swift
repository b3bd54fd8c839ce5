import Foundation

/// The event stream's rows: raised with what they report (a recipient's outcome in its transaction), claimed
/// in batches by a relay, and removed once the relay's outbox holds them.
public protocol EventStreamStore: EventLeaseStore {
    /// Which types this process raises from now on (empty: none; the default).
    func streamEvents(_ kinds: Set<StreamEvent.Kind>)

    /// The types raised.
    var streamedEvents: Set<StreamEvent.Kind> { get }

    /// Raises a `tap` event for each of `taps` (when taps are streamed); a tap raised before raises nothing.
    func raiseTapEvents(_ taps: [TapRecord], now: Date) throws(StoreError)

    /// Claims up to `limit` events for `duration` (PostgreSQL skips rows another process holds), oldest first.
    func claimStreamEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [StreamEvent]

    /// Removes events handed on.
    func finishStreamEvents(_ rowIDs: [Int64]) throws(StoreError)

    /// Leases up to `limit` claimable events for `duration` under a new token, oldest first (as
    /// ``GatewayStore/leaseWebhookEvents(limit:duration:now:)`` does for the webhook's).
    func leaseStreamEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<StreamEvent>
}
