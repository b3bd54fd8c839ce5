import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNs

@Suite struct APNsModelTests {
    static let hex = String(repeating: "ab", count: 32)

    @Test func deviceTokensAreValidatedAndRedacted() throws {
        let token = try DeviceToken("<" + Self.hex.uppercased() + ">")
        #expect(token.hex == Self.hex)
        #expect("\(token)" == "ababab…(64 chars)")
        #expect(throws: APNsError.self) { try DeviceToken("abc") }
        #expect(throws: APNsError.self) { try DeviceToken(String(repeating: "zz", count: 32)) }
        do {
            _ = try DeviceToken(String(repeating: "1", count: 63))
        } catch {
            #expect(error.kind == .invalidDeviceToken && !error.message.contains(String(repeating: "1", count: 63)))
        }
    }

    @Test func requestsCarryAPNsHeaders() throws {
        let id = UUID()
        let notification = APNsNotification(
            deviceToken: try DeviceToken(Self.hex), payload: Array("{}".utf8), topic: "com.example.app",
            pushType: .background, priority: 5, expiration: 0, collapseID: "c", apnsID: id)
        #expect(notification.path == "/3/device/" + Self.hex)
        let token = try ProviderToken(key: try P256PrivateKey.generate(), keyID: "K", teamID: "T", issuedAt: Date())
        let headers = Dictionary(uniqueKeysWithValues: notification.headers(token: token).map { ($0.name, $0.value) })
        #expect(headers["authorization"] == "bearer " + token.value)
        #expect(headers["apns-topic"] == "com.example.app" && headers["apns-push-type"] == "background")
        #expect(
            headers["apns-priority"] == "5" && headers["apns-expiration"] == "0" && headers["apns-collapse-id"] == "c")
        #expect(headers["apns-id"] == id.uuidString.lowercased())
        #expect(notification.headers(token: nil).first?.name == "apns-topic")
    }

    @Test func responsesReadReasonsAndTheUnregisteredTimestamp() {
        let gone = APNsResponse(
            status: 410, headers: ["apns-id": "x"],
            body: Array(#"{"reason":"Unregistered","timestamp":1700000000123}"#.utf8))
        #expect(gone.reason == .unregistered && gone.apnsID == "x")
        #expect(gone.timestamp == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(gone.reason?.tokenIsDead == true)
        let odd = APNsResponse(status: 400, headers: [:], body: Array(#"{"reason":"BrandNewReason"}"#.utf8))
        #expect(odd.reason?.rawValue == "BrandNewReason" && odd.reason?.isKnown == false)
        #expect(APNsResponse(status: 502, headers: [:], body: Array("<html>".utf8)).reason?.rawValue == "HTTP502")
        #expect(APNsResponse(status: 200, headers: ["apns-unique-id": "u"], body: []).reason == nil)
    }

    @Test(arguments: APNsReason.documented)
    func everyDocumentedReasonHasADecision(reason: APNsReason, status: Int) {
        let policy = RetryPolicy()
        let decision = policy.decide(
            after: APNsResponse(status: status, reason: reason), attempt: 1, tokenRefreshed: false, jitter: 0.5)
        switch reason {
        case .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown:
            guard case .retry = decision else { Issue.record("\(reason) should be retried"); return }
        case .expiredProviderToken:
            #expect(decision == .refreshTokenAndRetry)
            #expect(
                policy.decide(
                    after: APNsResponse(status: status, reason: reason), attempt: 2, tokenRefreshed: true, jitter: 0)
                    == .giveUp)
        default:
            #expect(decision == .giveUp, "\(reason) must be final")
        }
    }

    @Test func lostStreamsAreRetriedUntilTheAttemptsRunOut() {
        let policy = RetryPolicy(maximumAttempts: 3, baseBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
        #expect(
            policy.decide(after: nil, attempt: 1, tokenRefreshed: false, jitter: 0) == .retry(after: .milliseconds(50)))
        #expect(
            policy.decide(after: nil, attempt: 2, tokenRefreshed: false, jitter: 1) == .retry(after: .milliseconds(200))
        )
        #expect(policy.decide(after: nil, attempt: 3, tokenRefreshed: false, jitter: 0) == .giveUp)
        #expect(policy.backoff(afterAttempt: 30, jitter: 1) == .seconds(1))
    }

    @Test func resultsDescribeThemselvesWithoutTokens() {
        let id = UUID(uuidString: "123E4567-E89B-12D3-A456-426614174000")!
        #expect(
            "\(APNsResult.delivered(apnsID: id, uniqueID: nil))" == "delivered 123e4567-e89b-12d3-a456-426614174000")
        let rejected = APNsResult.rejected(
            apnsID: id, status: 410, reason: .unregistered, unregisteredAt: Date(timeIntervalSince1970: 0))
        #expect(
            "\(rejected)"
                == "rejected 123e4567-e89b-12d3-a456-426614174000: 410 Unregistered since 1970-01-01T00:00:00Z")
    }
}
