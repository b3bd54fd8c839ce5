import Foundation
import PushbuttonOutbox

/// Signs each webhook request before the outbox's sender posts it: `X-Pushbutton-Signature: sha256=<hex>`,
/// the HMAC-SHA-256 of the exact body bytes with the configured secret. The receiver recomputes it and
/// compares in constant time; the `Idempotency-Key` header (the event id) lets it drop a retried event.
struct SigningSender: OutboxSender {
    let secret: [UInt8]
    let inner: any OutboxSender

    static func signature(secret: [UInt8], body: [UInt8]) -> String {
        "sha256=" + Digest.hex(Digest.hmacSHA256(key: secret, body))
    }

    func send(_ request: OutgoingRequest) async throws -> Int {
        var signed = request
        signed.headers["X-Pushbutton-Signature"] = Self.signature(secret: secret, body: Array(request.body ?? Data()))
        return try await inner.send(signed)
    }
}
