import Foundation

/// The read-only queries of the gateway's console and its device summary, beside ``GatewayStore``:
/// ``SQLGatewayStore`` answers them on SQLite and PostgreSQL. A store that does not (a test double) leaves the
/// console's campaign list and device pages saying so.
public protocol ConsoleQueries: Sendable {
    /// The app's devices counted, with up to `inactiveLimit` of the latest dead tokens.
    func deviceSummary(app: String, inactiveLimit: Int) throws(StoreError) -> DeviceSummary

    /// The ids of the app's latest campaigns, newest first, at most `limit`.
    func campaignIDs(app: String, limit: Int) throws(StoreError) -> [String]
}
