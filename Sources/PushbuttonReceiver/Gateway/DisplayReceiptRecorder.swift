import Foundation
import Pushbutton

/// Where a Notification Service Extension records that a notification was received by the device (a display
/// receipt), durably, for the gateway. `GatewayClient` (PushbuttonOutbox) is one: it commits the receipt to the
/// outbox in the App Group container the app and its extension share, and whichever process runs next delivers it.
public protocol DisplayReceiptRecorder: Sendable {
    /// Commits a receipt for `payload`'s notification before returning; returns whether it was new (`false`: this
    /// notification's receipt was recorded before, or the payload carries no gateway id).
    func recordReceipt(for payload: Payload, receivedAt: Date) async throws -> Bool

    /// Sends what waits (receipts among it) for at most `timeLimit`; what is not sent waits for the next run.
    func deliverWaiting(timeLimit: Duration) async
}
