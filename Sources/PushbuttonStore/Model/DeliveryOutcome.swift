import Foundation

/// The final outcome a worker records for a leased recipient.
public enum DeliveryOutcome: Sendable, Hashable {
    case delivered
    /// APNs' status and reason; `unregisteredAt` is its timestamp for a 410.
    case rejected(status: Int, reason: String, unregisteredAt: Date?)
    /// Retries ran out; how many attempts were made and the last cause.
    case failed(attempts: Int, cause: String)

    /// The recipient's final state for this outcome.
    public var state: DeliveryState {
        switch self {
        case .delivered: .delivered
        case .rejected: .rejected
        case .failed: .failed
        }
    }
}
