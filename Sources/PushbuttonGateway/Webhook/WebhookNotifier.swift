import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonStore
import PushbuttonSupport

/// Tells the app's backend about each dead token and each final failure (and the event stream's batches):
/// the events wait in the store, queued in the outcome's own transaction, and a relay of whichever process
/// leases them posts them, signed, retried with backoff until acknowledged (see ``EventRelay``).
final class WebhookNotifier: Sendable {
    let configuration: WebhookConfiguration
    /// Signs and posts each request.
    let sender: any OutboxSender

    /// Failed posts after which an event is dropped (with backoff up to a minute: about 45 minutes of trying).
    static let maximumAttempts = 50

    init(_ configuration: WebhookConfiguration, sender: (any OutboxSender)? = nil) {
        self.configuration = configuration
        self.sender =
            sender
            ?? SigningSender(
                secret: Array(configuration.secret.utf8), inner: URLSessionSender(timeout: .seconds(10)))
    }

    /// The wait after an event's `failures`th failed post: from 200 ms doubling to a minute, half of it random.
    static func backoff(afterFailure failures: Int) -> Duration {
        Backoff.delay(
            afterAttempt: failures, base: .milliseconds(200), maximum: .seconds(60), jitter: Double.random(in: 0...1))
    }

    /// The request that posts `event`; its id (type and `apns-id`) is its `Idempotency-Key`, so a receiver
    /// drops an event posted twice.
    func request(_ event: WebhookEvent) -> OutgoingRequest {
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
        return request(url: configuration.url, body: .object(body), key: "\(event.kind.rawValue):\(event.apnsID)")
    }

    /// A signed JSON POST of `body` to `url` with `key` as its `Idempotency-Key`.
    func request(url: String, body: JSONValue, key: String) -> OutgoingRequest {
        OutgoingRequest(
            url: url, method: "POST", headers: ["Idempotency-Key": key, "Content-Type": "application/json"],
            body: Data(JSONWriter.compact(body)))
    }
}
