import Foundation
import PushbuttonOutbox

/// Signs each webhook request before the outbox's sender posts it: `X-Pushbutton-Signature:
/// t=<unix seconds>,v1=<hex>`, the HMAC-SHA-256 of `"<t>."` and the exact body bytes with the configured
/// secret (see ``WebhookSignature``). Each attempt is signed anew with the time it is sent, so the receiver can
/// refuse old signatures; the `Idempotency-Key` header (the event id) lets it drop a retried event.
struct SigningSender: OutboxSender {
    let secret: [UInt8]
    let inner: any OutboxSender
    /// The signing time of each attempt (injected so tests can sign at a known time).
    var now: @Sendable () -> Date = { Date() }

    /// The bytes the HMAC covers: the timestamp's decimal digits, a dot, then the body as sent.
    static func signedBytes(timestamp: Int64, body: [UInt8]) -> [UInt8] {
        Array("\(timestamp).".utf8) + body
    }

    static func signature(secret: [UInt8], body: [UInt8], timestamp: Date) -> String {
        let seconds = Int64(timestamp.timeIntervalSince1970.rounded(.down))
        let mac = Digest.hmacSHA256(key: secret, signedBytes(timestamp: seconds, body: body))
        return "t=\(seconds),v1=" + Digest.hex(mac)
    }

    func send(_ request: OutgoingRequest) async throws -> Int {
        var signed = request
        signed.headers["X-Pushbutton-Signature"] = Self.signature(
            secret: secret, body: Array(request.body ?? Data()), timestamp: now())
        return try await inner.send(signed)
    }
}
