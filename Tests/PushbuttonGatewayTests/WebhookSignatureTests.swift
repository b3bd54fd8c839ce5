import Foundation
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonOutbox

/// The webhook signature covers a timestamp, so a captured event stops verifying once it is old (red-team L10),
/// and what the sender writes is what a receiver in another language recomputes.
struct WebhookSignatureTests {
    static let secret = "whsec-0123456789abcdef"
    static let body = Array(#"{"type":"device.unregistered","id":"device.unregistered:1"}"#.utf8)
    static let sentAt = Date(timeIntervalSince1970: 1_900_000_000.75)

    @Test func theHeaderNamesTheSecondAndSignsTimestampDotBody() throws {
        let header = WebhookSignature.header(secret: Self.secret, body: Self.body, timestamp: Self.sentAt)
        let parsed = try #require(WebhookSignature.parse(header))
        #expect(parsed.timestamp == 1_900_000_000)
        // What a receiver written from the docs computes: HMAC-SHA-256(secret as UTF-8, "<t>." + body), hex.
        let expected = Digest.hex(
            Digest.hmacSHA256(key: Array(Self.secret.utf8), Array("1900000000.".utf8) + Self.body))
        #expect(header == "t=1900000000,v1=\(expected)")
    }

    @Test func aFreshSignatureVerifiesWithinTheTolerance() {
        let header = WebhookSignature.header(secret: Self.secret, body: Self.body, timestamp: Self.sentAt)
        #expect(WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt))
        #expect(
            WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt + 299))
        // A receiver's clock a little behind the sender's.
        #expect(
            WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt - 120))
    }

    @Test func aReplayedEventOutsideTheToleranceIsRefused() {
        let header = WebhookSignature.header(secret: Self.secret, body: Self.body, timestamp: Self.sentAt)
        #expect(!WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt + 3600))
        #expect(
            !WebhookSignature.verify(
                header, secret: Self.secret, body: Self.body, now: Self.sentAt + 61, tolerance: 60))
    }

    @Test func anotherSecretATamperedBodyOrAMovedTimestampIsRefused() {
        let header = WebhookSignature.header(secret: Self.secret, body: Self.body, timestamp: Self.sentAt)
        #expect(!WebhookSignature.verify(header, secret: "another-secret-123456", body: Self.body, now: Self.sentAt))
        #expect(!WebhookSignature.verify(header, secret: Self.secret, body: Self.body + [0x20], now: Self.sentAt))
        // The timestamp is signed: moving it forward to pass the tolerance check breaks the HMAC.
        let moved = header.replacingOccurrences(of: "t=1900000000", with: "t=1900003600")
        #expect(
            !WebhookSignature.verify(moved, secret: Self.secret, body: Self.body, now: Self.sentAt + 3600))
    }

    @Test(arguments: [
        "", "sha256=00", "t=1900000000", "v1=00", "t=abc,v1=00", "t=,v1=", "t=1900000000,v1=", "garbage",
    ])
    func aMalformedHeaderIsRefused(header: String) {
        #expect(!WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt))
    }

    @Test func anyOfSeveralV1SignaturesMayMatch() throws {
        let header = WebhookSignature.header(secret: Self.secret, body: Self.body, timestamp: Self.sentAt)
        let v1 = try #require(WebhookSignature.parse(header)?.signatures.first)
        let rotated = "t=1900000000,v1=\(String(repeating: "0", count: 64)), v1=\(v1)"
        #expect(WebhookSignature.verify(rotated, secret: Self.secret, body: Self.body, now: Self.sentAt))
    }

    @Test func theSenderSignsEachAttemptWithTheTimeItIsSent() async throws {
        let recorder = RecordingSender()
        let clock = SettableTime(Self.sentAt)
        let sender = SigningSender(secret: Array(Self.secret.utf8), inner: recorder, now: { clock.now })
        let request = OutgoingRequest(
            url: "https://backend.example/hook", method: "POST", headers: [:], body: Data(Self.body))
        _ = try await sender.send(request)
        clock.now = Self.sentAt + 90
        _ = try await sender.send(request)
        let headers = recorder.signatures
        #expect(headers.count == 2)
        #expect(headers.first?.hasPrefix("t=1900000000,") == true)
        #expect(headers.last?.hasPrefix("t=1900000090,") == true)
        for header in headers {
            #expect(WebhookSignature.verify(header, secret: Self.secret, body: Self.body, now: Self.sentAt + 90))
        }
    }
}

/// Keeps the signature header of each request it is given.
private final class RecordingSender: OutboxSender, Sendable {
    private let kept = Locked<[String]>([])
    var signatures: [String] { kept.withLock { $0 } }

    func send(_ request: OutgoingRequest) async throws -> Int {
        kept.withLock { $0.append(request.headers["X-Pushbutton-Signature"] ?? "") }
        return 200
    }
}

/// A wall-clock stand-in the test sets.
private final class SettableTime: Sendable {
    private let value: Locked<Date>
    init(_ value: Date) { self.value = Locked(value) }
    var now: Date {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
