import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// Rate limits per API key kind and per device token (issue 32; red-team L4), in process on a clock the test
/// moves: `429` with `Retry-After` past the bucket, other apps, kinds and devices unaffected, and the buckets
/// refill at the configured rate.
@Suite(.timeLimit(.minutes(2))) struct RateLimitTests {
    typealias F = GatewayFixture

    final class TestTime: Sendable {
        let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    static let register = #"{"environment": "sandbox"}"#

    @Test func aDeviceTokenOverItsRateIsRefusedWithRetryAfterAndOthersAreNot() throws {
        let time = TestTime()
        // 6 a minute: a bucket of RateLimits.minimumBurst (20), refilled one every 10 s.
        let fixture = try RouterClient(
            now: { time.now.withLock { $0 } }, rateLimits: RateLimits(devicePerMinute: 6))
        let path = "/v1/apps/chat/devices/\(F.token(1))"
        for _ in 0..<RateLimits.minimumBurst {
            #expect(fixture.request("PUT", path, key: F.publishable, json: Self.register).status == 200)
        }
        // The same token in capitals is the same device.
        let refused = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(1).uppercased())", key: F.publishable, json: Self.register)
        #expect(refused.status == 429, "\(refused.body)")
        #expect(refused.header("retry-after") == "10")
        #expect(refused.json?.objectValue?["error"]?.objectValue?["code"] == "rate_limited", "\(refused.body)")
        #expect(refused.body.contains("this device token"))
        // Another device, and the secret key for the same device, go on.
        let other = "/v1/apps/chat/devices/\(F.token(2))"
        #expect(fixture.request("PUT", other, key: F.publishable, json: Self.register).status == 200)
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary").status == 200)
        time.advance(10)
        #expect(fixture.request("PUT", path, key: F.publishable, json: Self.register).status == 200)
        #expect(fixture.request("PUT", path, key: F.publishable, json: Self.register).status == 429)
    }

    @Test func aKeyKindOverItsAppsRateIsRefusedAndRefills() throws {
        let time = TestTime()
        // 120 a minute with the secret key: a bucket of 20 (10 s worth), two more each second.
        let fixture = try RouterClient(
            now: { time.now.withLock { $0 } }, rateLimits: RateLimits(secretPerMinute: 120))
        for _ in 0..<20 { #expect(fixture.request("GET", "/v1/apps/chat/devices/summary").status == 200) }
        let refused = fixture.request("GET", "/v1/apps/chat/devices/summary")
        #expect(refused.status == 429 && refused.header("retry-after") == "1", "\(refused.body)")
        #expect(refused.body.contains("more than 120 requests a minute for this app's secret keys"))
        // The publishable key has its own bucket; a request without a valid key still gets its 401.
        let device = "/v1/apps/chat/devices/\(F.token(3))"
        #expect(fixture.request("PUT", device, key: F.publishable, json: Self.register).status == 200)
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary", key: nil).status == 401)
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary", key: "pb_sk_wrong").status == 401)
        time.advance(3)
        for _ in 0..<6 { #expect(fixture.request("GET", "/v1/apps/chat/devices/summary").status == 200) }
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary").status == 429)
    }

    @Test func theLimitsAreReadFromTheConfigurationAndAnAppOverridesThem() throws {
        let directory = NSTemporaryDirectory() + "pushbutton-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try F.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        try P256PrivateKey.generate().pemRepresentation.write(
            toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        var text = F.configurationText(mockPort: 9, caFile: nil, webhookPort: nil, store: "sqlite:g.db", workers: 0)
        text = text.replacingOccurrences(
            of: #""maxRecipients": 5000}"#,
            with: #""maxRecipients": 5000, "deviceRequestsPerMinute": 12, "secretRequestsPerMinute": 600}"#)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
        let app = try #require(parsed.configuration?.apps.first, "\(parsed.diagnostics)")
        #expect(app.rateLimits == RateLimits(secretPerMinute: 600, publishablePerMinute: 60_000, devicePerMinute: 12))
        let override = text.replacingOccurrences(
            of: #""id": "chat","#, with: #""id": "chat", "rateLimits": {"publishableRequestsPerMinute": 0},"#)
        let overridden = GatewayConfiguration.parse(Array(override.utf8), baseDirectory: directory)
        let chat = try #require(overridden.configuration?.app("chat"), "\(overridden.diagnostics)")
        #expect(chat.rateLimits.publishablePerMinute == 0 && chat.rateLimits.devicePerMinute == 12)
        let bad = text.replacingOccurrences(
            of: "\"deviceRequestsPerMinute\": 12", with: "\"deviceRequestsPerMinute\": -1")
        let refused = GatewayConfiguration.parse(Array(bad.utf8), baseDirectory: directory)
        #expect(refused.configuration == nil)
        #expect(refused.diagnostics.contains { "\($0)".contains("deviceRequestsPerMinute") }, "\(refused.diagnostics)")
    }

    @Test func theBucketsKeptAreBounded() {
        let limiter = RateLimiter(capacity: 4)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for device in 0..<100 { _ = limiter.take("chat device \(device)", perMinute: 6, now: now) }
        #expect(limiter.count == 4)
        // A bucket over its rate is kept while others come and go only if it is among the most recent.
        #expect(limiter.take("chat device 99", perMinute: 6, now: now) == nil)
    }
}
