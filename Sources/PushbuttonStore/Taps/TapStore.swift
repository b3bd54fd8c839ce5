import Foundation

/// The taps devices report and the statistics read from them, beside ``GatewayStore``'s queue: a table of tap
/// events with a unique event id per app, joined to the notifications by id when read. ``SQLGatewayStore``
/// implements it on SQLite and PostgreSQL.
public protocol TapStore: Sendable {
    /// Stores a batch of taps in one transaction. An event id stored before (for the same app) is a duplicate
    /// and changes nothing, so a device's retry counts once.
    func record(taps: [TapRecord], now: Date) throws(StoreError) -> TapBatchResult

    /// Notes the category of the app's notifications that have none noted yet (up to `limit` of them), as
    /// `categoryOf` reads it from each one's kind and stored request; returns how many it noted. A category
    /// scope (``StatsQuery/Scope/category(_:)``) counts the notifications noted so far.
    @discardableResult
    func categorize(
        app: String, limit: Int, _ categoryOf: (NotificationSpec.Kind, [UInt8]) -> String?
    ) throws(StoreError) -> Int

    /// The outcomes of the notifications in scope and the taps joined to them. A tap whose notification id
    /// matches no notification of the app is stored but not counted.
    func statistics(_ query: StatsQuery) throws(StoreError) -> TapStatistics
}
