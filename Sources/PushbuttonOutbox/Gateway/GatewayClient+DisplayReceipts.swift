import Foundation
import Pushbutton
import PushbuttonReceiver

/// Display receipts through the outbox: a Notification Service Extension records each notification it receives
/// (`POST /v1/apps/{app}/receipts`, idempotency key `receipt:` + the receipt's id). Open the outbox in the App Group
/// container (``Outbox/applicationSupport(named:appGroup:options:)``) in both the app and the extension, so the
/// extension reads the app's registration (the token) beside it, and whichever process runs next sends the receipt.
extension GatewayClient: DisplayReceiptRecorder {
    /// Queues the receipt of `payload`'s notification; `false` when it was queued before or the payload has no
    /// gateway id. Throws ``GatewayClientError/notRegistered`` before the app registered a token.
    public func recordReceipt(for payload: Payload, receivedAt: Date) async throws -> Bool {
        guard payload.actions?.notificationID != nil else { return false }
        guard let token = deviceToken else { throw GatewayClientError.notRegistered }
        guard let receipt = DisplayReceipt(payload: payload, token: token, receivedAt: receivedAt) else { return false }
        let result = try await outbox.enqueue(
            BackendRequest(
                url: connection.receiptsURL, method: "POST", body: ["receipts": [receipt.jsonValue]],
                idempotencyKey: "receipt:" + receipt.eventID, notificationIdentifier: receipt.notificationID,
                actionIdentifier: "receipt"))
        if case .duplicate = result { return false }
        return true
    }

    /// Sends what is due once, for at most `timeLimit`; a busy worker (the app delivering) or a failure leaves it
    /// to the next run.
    public func deliverWaiting(timeLimit: Duration) async {
        _ = try? await outbox.drain(sender: sender(), timeLimit: timeLimit)
    }
}
