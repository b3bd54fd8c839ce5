import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// Independent clients against the mock: nghttp (frame by frame), h2load (nghttp2's load tester) and
/// aioapns (a Python APNs client). They must succeed where APNs would accept, and be refused where APNs
/// would refuse.
@Suite(.timeLimit(.minutes(5))) struct CrossCheckTests {
    static let payload = #"{"aps":{"alert":"Hello","category":"reply"}}"#

    static func bearer(_ fixture: MockFixture) throws -> String {
        "authorization: bearer "
            + (try ProviderToken(
                key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID, issuedAt: Date())).value
    }

    static func payloadFile(_ fixture: MockFixture) throws -> String {
        let path = fixture.directory + "/payload.json"
        try Data(payload.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theStreamLimitStartsAtOneAndRisesAfterAValidToken() async throws {
        let fixture = try await MockFixture()
        let url = "https://127.0.0.1:\(fixture.mock.port)/3/device/\(MockFixture.token(1))"
        let output = try await ExternalTool.run(
            "nghttp",
            [
                "-nv", "-d", try Self.payloadFile(fixture), "-H", try Self.bearer(fixture), "-H",
                "apns-topic: \(MockFixture.topic)", "-H", "apns-push-type: alert", url,
            ])
        #expect(output.status == 0)
        let limits = output.stdout.split(separator: "\n").filter {
            $0.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03)")
        }
        // nghttp's own SETTINGS (100) come first; then the mock's 1, and 1000 after the valid request.
        let initial = try #require(limits.firstIndex { $0.hasSuffix(":1]") })
        let raised = try #require(limits.firstIndex { $0.hasSuffix(":1000]") })
        #expect(initial < raised)
        #expect(output.stdout.contains(":status: 200"))
        await fixture.stop()
    }

    /// One stream at a time: h2load opens its streams before it reads the server's SETTINGS, so with more
    /// the mock (like APNs) refuses those beyond the first connection's limit of one.
    @Test func h2loadIsAcceptedAndItsBadTokensRefused() async throws {
        let fixture = try await MockFixture()
        let base = "https://127.0.0.1:\(fixture.mock.port)/3/device/"
        func load(_ token: String) async throws -> ExternalTool.Output {
            try await ExternalTool.run(
                "h2load",
                [
                    "-n", "400", "-c", "1", "-m", "1", "-d", try Self.payloadFile(fixture), "-H",
                    try Self.bearer(fixture), "-H", "apns-topic: \(MockFixture.topic)", "-H", "apns-push-type: alert",
                    base + token,
                ])
        }
        let good = try await load(MockFixture.token(7))
        #expect(good.stdout.contains("400 succeeded"))
        #expect(good.stdout.contains("status codes: 400 2xx"))
        let bad = try await load(String(repeating: "z", count: 64))
        #expect(bad.stdout.contains("status codes: 0 2xx, 0 3xx, 400 4xx"))
        #expect(
            fixture.mock.counters.accepted == 400 && fixture.mock.counters.rejectedByReason["BadDeviceToken"] == 400)
        await fixture.stop()
    }

    @Test func aioapnsIsAcceptedAndItsBadTokensRefused() async throws {
        let fixture = try await MockFixture()
        let keyFile = fixture.directory + "/AuthKey.p8"
        try Data(fixture.key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
        let arguments = [
            "scripts/aioapns-send.py", "--port", String(fixture.mock.port), "--ca", fixture.mock.caFile!, "--key",
            keyFile,
            "--key-id", MockFixture.keyID, "--team-id", MockFixture.teamID, "--topic", MockFixture.topic,
        ]
        let good = try await ExternalTool.run("/usr/bin/python3", arguments + ["--count", "50"])
        #expect(good.stdout.contains(#""ok": 50"#), "\(good.stdout) \(good.stderr)")
        let bad = try await ExternalTool.run(
            "/usr/bin/python3", arguments + ["--count", "5", "--token", String(repeating: "0", count: 10)])
        #expect(bad.stdout.contains(#""reasons": {"BadDeviceToken": 5}"#), "\(bad.stdout) \(bad.stderr)")
        let recorded = fixture.mock.notifications
        #expect(recorded.count == 50 && recorded.allSatisfy { $0.typedPayload?.aps.category == "comment" })
        await fixture.stop()
    }
}
