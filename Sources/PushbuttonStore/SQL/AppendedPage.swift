import Foundation

/// A page of a campaign's recipients waiting for its group commit (SQLite), read from the caller's stream
/// before it waits.
struct AppendedPage: Sendable {
    var campaign: String
    var now: Date
    var deliveries: [NewDelivery]
    /// The page's `Idempotency-Key`, stored with it.
    var idempotency: IdempotencyKey?
}
