import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver

/// Tells the app's backend about each dead token and each final failure: an event committed to a durable
/// outbox (SQLite, one per process), then posted, signed, and retried with backoff until acknowledged.
final class WebhookNotifier: Sendable {
    let configuration: WebhookConfiguration
    let outbox: Outbox

    init(_ configuration: WebhookConfiguration) throws(OutboxError) {
        self.configuration = configuration
        outbox = try Outbox(
            path: configuration.outboxPath,
            options: OutboxOptions(
                maximumAttempts: 50, timeToLive: .seconds(3 * 86400), baseBackoff: .milliseconds(200),
                maximumBackoff: .seconds(60), capacity: 1_000_000))
    }

    /// One event; the event id (type and `apns-id`) is its idempotency key.
    func post(
        type: String, app: String, token: String, notificationID: String, apnsID: String, details: [String: JSONValue]
    )
        async
    {
        var body: [String: JSONValue] = [
            "type": .string(type), "id": .string("\(type):\(apnsID)"), "app": .string(app), "token": .string(token),
            "notification_id": .string(notificationID), "apns_id": .string(apnsID),
            "at": Rendering.milliseconds(Date()),
        ]
        body.merge(details) { $1 }
        let request = BackendRequest(
            url: configuration.url, method: "POST", body: .object(body), idempotencyKey: "\(type):\(apnsID)",
            notificationIdentifier: notificationID, actionIdentifier: type)
        do {
            _ = try await outbox.enqueue(request)
        } catch {
            FileHandle.standardError.write(Data("pushbutton serve: cannot queue a webhook event: \(error)\n".utf8))
        }
    }

    /// Posts queued events until cancelled.
    func run() async {
        let sender = SigningSender(
            secret: Array(configuration.secret.utf8), inner: URLSessionSender(timeout: .seconds(10)))
        do {
            try await outbox.run(sender: sender, pollInterval: .milliseconds(500))
        } catch {
            if !Task.isCancelled {
                FileHandle.standardError.write(Data("pushbutton serve: the webhook outbox stopped: \(error)\n".utf8))
            }
        }
    }
}
