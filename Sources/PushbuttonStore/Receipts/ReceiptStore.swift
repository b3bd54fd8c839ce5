import Foundation

/// The display receipts devices report, beside the taps: a table with a unique event id per app, joined to the
/// notifications by id when counted. ``SQLGatewayStore`` implements it on SQLite and PostgreSQL.
public protocol ReceiptStore: Sendable {
    /// Stores a batch of receipts in one transaction; an event id stored before (for the same app), or repeated
    /// in the batch, is a duplicate and changes nothing.
    func record(receipts: [ReceiptRecord], now: Date) throws(StoreError) -> TapBatchResult

    /// How many receipts of the scope's notifications were received in the window (by ``ReceiptRecord/receivedAt``);
    /// a receipt whose notification id matches no notification of the app is not counted.
    func receivedCount(_ query: StatsQuery) throws(StoreError) -> Int
}
