import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonStore

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

    /// Commits one event to the outbox (an actor); `false` when it could not (it stays in the store and is
    /// tried again later). The event id (type and `apns-id`) is its idempotency key, so an event handed on
    /// twice is stored once.
    func post(_ event: WebhookEvent) async -> Bool {
        var body: [String: JSONValue] = [
            "type": .string(event.kind.rawValue), "id": .string("\(event.kind.rawValue):\(event.apnsID)"),
            "app": .string(event.app), "token": .string(event.token),
            "notification_id": .string(event.notificationID), "apns_id": .string(event.apnsID),
            "at": Rendering.milliseconds(event.at),
        ]
        if let status = event.status { body["status"] = .integer(Int64(status)) }
        if let reason = event.reason { body["reason"] = .string(reason) }
        if event.status == nil { body["attempts"] = .integer(Int64(event.attempts)) }
        if let since = event.unregisteredAt { body["unregistered_at"] = Rendering.milliseconds(since) }
        let request = BackendRequest(
            url: configuration.url, method: "POST", body: .object(body),
            idempotencyKey: "\(event.kind.rawValue):\(event.apnsID)", notificationIdentifier: event.notificationID,
            actionIdentifier: event.kind.rawValue)
        do {
            _ = try await outbox.enqueue(request)
            return true
        } catch {
            FileHandle.standardError.write(Data("pushbutton serve: cannot queue a webhook event: \(error)\n".utf8))
            return false
        }
    }

    /// Commits a request built elsewhere (the event stream's batches) to the outbox; `false` when it could not.
    func enqueue(_ request: BackendRequest) async -> Bool {
        do {
            _ = try await outbox.enqueue(request)
            return true
        } catch {
            FileHandle.standardError.write(Data("pushbutton serve: cannot queue webhook events: \(error)\n".utf8))
            return false
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
