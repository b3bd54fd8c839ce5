import Foundation
import Pushbutton

/// The definite outcome of one notification: every notification ends in exactly one of these.
public enum APNsResult: Sendable, Hashable, CustomStringConvertible {
    /// APNs accepted it.
    case delivered(apnsID: UUID, uniqueID: String?)
    /// APNs refused it for good: its status, reason and, for `Unregistered`, when the token died.
    case rejected(apnsID: UUID, status: Int, reason: APNsReason, unregisteredAt: Date?)
    /// Retries ran out (or the sender shut down); the last cause, and how many attempts were made. The cause's
    /// ``APNsError/kind`` says what to do: `transport` or `serverAnswer` may be sent again later, `shutDown` was
    /// never sent, `invalidRequest` and `invalidKey` need a fix first.
    case failed(apnsID: UUID, attempts: Int, lastCause: APNsError)

    /// The notification's `apns-id`, whatever the outcome.
    public var apnsID: UUID {
        switch self {
        case .delivered(let id, _), .rejected(let id, _, _, _), .failed(let id, _, _): return id
        }
    }

    /// Whether APNs accepted it.
    public var isDelivered: Bool { if case .delivered = self { true } else { false } }

    /// One line for logs: the outcome, the `apns-id` and the status, reason or cause.
    public var description: String {
        switch self {
        case .delivered(let id, let unique):
            return "delivered \(id.uuidString.lowercased())" + (unique.map { " (unique id \($0))" } ?? "")
        case .rejected(let id, let status, let reason, let date):
            // The reason and the cause come from the server: escaped, so they cannot write to the terminal.
            return "rejected \(id.uuidString.lowercased()): \(status) \(TerminalText.escaped(reason.rawValue))"
                + (date.map { " since \(ISO8601DateFormatter().string(from: $0))" } ?? "")
        case .failed(let id, let attempts, let cause):
            return
                "failed \(id.uuidString.lowercased()) after \(attempts) attempt(s): \(TerminalText.escaped(cause.message))"
        }
    }
}
