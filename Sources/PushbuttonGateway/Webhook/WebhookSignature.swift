import Foundation

/// The webhook's `X-Pushbutton-Signature` header, for receivers written in Swift:
/// `t=<unix seconds>,v1=<hex HMAC-SHA-256>`, where the HMAC covers `"<t>."` followed by the exact body bytes
/// and its key is the configured secret's UTF-8 bytes (the secret is text; it is not hex-decoded).
///
/// The timestamp is the time of each posting attempt, so a receiver that refuses signatures older than a few
/// minutes (``verify(_:secret:body:now:tolerance:)``) cannot be fed a captured event again later; within the
/// tolerance a replay is caught by the `Idempotency-Key` header (the event id), the same on every retry.
public enum WebhookSignature {
    /// How far a signature's timestamp may be from the receiver's clock by default: five minutes.
    public static let defaultTolerance: TimeInterval = 300

    /// The header value signing `body` with `secret` at `timestamp` (whole Unix seconds).
    public static func header(secret: String, body: [UInt8], timestamp: Date) -> String {
        SigningSender.signature(secret: Array(secret.utf8), body: body, timestamp: timestamp)
    }

    /// Whether `header` signs `body` with `secret` at a time within `tolerance` of `now`. The HMAC is compared
    /// in constant time; a header without `t=` or `v1=`, a malformed or far-off timestamp, and a
    /// signature made with another secret are all refused.
    public static func verify(
        _ header: String, secret: String, body: [UInt8], now: Date = Date(), tolerance: TimeInterval = defaultTolerance
    ) -> Bool {
        guard let parsed = parse(header), abs(now.timeIntervalSince1970 - Double(parsed.timestamp)) <= tolerance
        else { return false }
        let expected = Digest.hex(
            Digest.hmacSHA256(
                key: Array(secret.utf8), SigningSender.signedBytes(timestamp: parsed.timestamp, body: body)))
        return parsed.signatures.contains { Digest.constantTimeEqual(Array(expected.utf8), Array($0.utf8)) }
    }

    /// The header's timestamp and its `v1` signatures (a receiver accepts any of them, so a future secret
    /// rotation can sign with two keys at once); nil when either part is missing or the timestamp is not a
    /// number of seconds.
    static func parse(_ header: String) -> (timestamp: Int64, signatures: [String])? {
        var timestamp: Int64?
        var signatures: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            switch pair[0] {
            case "t": timestamp = Int64(pair[1])
            case "v1": signatures.append(String(pair[1]))
            default: continue
            }
        }
        guard let timestamp, !signatures.isEmpty else { return nil }
        return (timestamp, signatures)
    }
}
