import Foundation
import Testing

/// `pushbutton mock-apns`, run as a user would, with `pushbutton send` as its client.
@Suite(.timeLimit(.minutes(5))) struct MockAPNsCommandTests {
    static let alive = String(repeating: "a", count: 63) + "1"
    static let dead = String(repeating: "d", count: 63) + "2"

    @Test func servesSendWithAGeneratedKeyAndLogsRedactedAnswers() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = try LocalServer(mockAPNs: [
            "--self-signed", directory.path, "--unregistered", Self.dead, "--duration", "300",
        ])
        let listening = try #require(
            try JSONSerialization.jsonObject(with: Data(mock.firstLine.utf8)) as? [String: Any])
        let keyFile = try #require(listening["auth_key"] as? String)
        let caFile = try #require(listening["ca"] as? String)
        #expect(caFile == directory.path + "/ca.pem" && listening["key_id"] as? String == "MOCKKEY001")
        let keyMode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)

        let input = [Self.alive, Self.dead].map { #"{"token":"\#($0)"}"# }.joined(separator: "\n")
        let send = try await CLI.run(
            [
                "send", "--key", keyFile, "--key-id", "MOCKKEY001", "--team-id", "MOCKTEAM01", "--topic",
                "com.example.chatter", "--host", "127.0.0.1", "--port", String(mock.port), "--ca", caFile,
                "--category", "message", "--body", "Lunch?",
            ], stdin: input)
        #expect(send.status == 1)  // one notification was rejected
        #expect(send.stdout.contains(#""status":"delivered""#) && send.stdout.contains(#""reason":"Unregistered""#))
        mock.stop()
        let log = mock.remainingOutput().split(separator: "\n")
        #expect(log.count == 2)
        #expect(log.contains { $0.contains(#""status":200"#) } && log.contains { $0.contains(#""status":410"#) })
        #expect(!log.contains { $0.contains(Self.alive) || $0.contains(Self.dead) })  // tokens are redacted
    }

    @Test func stopsAfterItsDurationWithASummary() async throws {
        let result = try await CLI.run(["mock-apns", "--port", "0", "--h2c", "--quiet", "--duration", "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains(#""url":"http://127.0.0.1:"#))
        #expect(result.stderr == "mock-apns: 0 connection(s), 0 request(s), 0 accepted, 0 rejected\n")
    }

    @Test(arguments: [
        (
            ["--h2c", "--self-signed", "/tmp/x"],
            "choose one of --h2c, --self-signed DIR and --cert FILE --key FILE"
        ),
        (["--cert", "server.pem"], "--cert needs --key FILE, the certificate's private key"),
        (["--faults", "teapot=1"], "--faults: unknown fault 'teapot'"),
        (["--auth-key", "AuthKey.p8"], "--auth-key needs --key-id ID and --team-id ID"),
        (
            ["--device", "1234:com.example"],
            "--device needs TOKEN:BUNDLE with a hexadecimal token, got '1234:com.example'"
        ),
        (
            ["--certificate-environment", "staging", "--client-ca", "ca.pem"],
            "--certificate-environment takes sandbox or production, not 'staging'"
        ),
        (
            ["--certificate-environment", "production"],
            "--certificate-environment goes with --client-ca FILE (certificate-based senders)"
        ),
    ])
    func wrongCommandLinesExitTwoWithOneLine(arguments: [String], message: String) async throws {
        let result = try await CLI.run(["mock-apns", "--port", "0", "--duration", "1"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: " + message) || result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
