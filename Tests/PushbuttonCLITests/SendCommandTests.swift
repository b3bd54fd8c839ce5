import Foundation
import Pushbutton
import PushbuttonAPNs
import Testing

@testable import PushbuttonCLI

/// `pushbutton send`, run as a user would, against the APNs-like TLS test server.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SendCommandTests {
    /// The test server, its private CA, and a throwaway provider key.
    final class Setup {
        let directory: URL
        let server: LocalServer
        let keyFile: String

        init() throws {
            directory = try CLI.temporaryDirectory()
            keyFile = directory.appendingPathComponent("AuthKey_TEST.p8").path
            try Data(try P256PrivateKey.generate().pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
            chmod(keyFile, 0o600)  // as a provider key should be (the umask decides otherwise)
            server = try LocalServer(
                script: "apns-test-server.py",
                arguments: [
                    "--log", directory.appendingPathComponent("requests.ndjson").path, "--tls-dir", directory.path,
                    "--max-seconds", "300",
                ])
        }

        var base: [String] {
            [
                "send", "--key", keyFile, "--key-id", "KEY1234567", "--team-id", "TEAM123456", "--topic",
                "com.example.chatter",
                "--host", "127.0.0.1", "--port", "\(server.port)", "--ca",
                directory.appendingPathComponent("ca.pem").path,
            ]
        }

        func requestTokens() throws -> [String] {
            try LocalServer.values("token", inLog: directory.appendingPathComponent("requests.ndjson"))
        }

        func stop() {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    static func token(_ prefix: String, _ fill: Character = "a") -> String {
        prefix + String(repeating: fill, count: 64 - prefix.count)
    }

    @Test func sendsOneNotificationBuiltFromFlags() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let result = try await CLI.run(
            setup.base + [
                "--token", Self.token("0000"), "--category", "message", "--body", "Lunch?", "--manifest",
                "Examples/manifest.json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("0000aa…(64 chars): delivered "))
        #expect(result.stderr.hasPrefix("sent 1: delivered 1, rejected 0, failed 0 in "))
        #expect(try setup.requestTokens() == [Self.token("0000")])
    }

    @Test func bulkNDJSONGivesOneResultPerNotificationAndASummary() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let payload = #"{"aps":{"alert":"Hi","category":"message"}}"#
        let input = [
            #"{"token":"\#(Self.token("0000"))","payload":\#(payload)}"#,
            #"{"token":"\#(Self.token("dead"))","payload":\#(payload)}"#,
            #"{"token":"\#(Self.token("bad0"))"}"#,
            #"not json"#,
            #"{"token":"\#(Self.token("0000", "b"))","payload":{"aps":{"alert":"Hi","category":"mesage"}}}"#,
            #"{"token":"12","payload":\#(payload)}"#,
        ].joined(separator: "\n")
        let result = try await CLI.run(
            setup.base + ["--body", "default", "--manifest", "Examples/manifest.json", "--category", "message"],
            stdin: input)
        #expect(result.status == 1)
        let lines = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        let byStatus = Dictionary(grouping: lines, by: { $0["status"]?.stringValue ?? "" })
        #expect(
            byStatus["delivered"]?.count == 1 && byStatus["rejected"]?.count == 2 && byStatus["invalid"]?.count == 3)
        let dead = try #require(byStatus["rejected"]?.first { $0["reason"] == "Unregistered" })
        #expect(dead["token"] == .string(Self.token("dead")) && dead["unregistered_at"] == 1_700_000_000_000)
        #expect(
            byStatus["invalid"]?.contains {
                $0["line"] == 5 && ($0["error"]?.stringValue?.contains("unknown-category") ?? false)
            } == true)
        #expect(
            result.stderr.contains(
                "sent 3: delivered 1, rejected 2 (BadDeviceToken: 1, Unregistered: 1), failed 0, invalid 3 in "))
    }

    @Test func shardsSplitATokenListWithoutOverlap() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let tokens = (0..<24).map { Self.token(String(format: "%04x", $0 + 0x1000)) }
        let file = setup.directory.appendingPathComponent("tokens.txt")
        try Data(tokens.joined(separator: "\n").utf8).write(to: file)
        var sent: [Set<String>] = []
        for shard in ["1/3", "2/3", "3/3"] {
            let before = Set(try setup.requestTokens())
            let result = try await CLI.run(setup.base + ["--tokens", file.path, "--shard", shard, "--body", "Hi"])
            #expect(result.status == 0, "\(result.stderr)")
            sent.append(Set(try setup.requestTokens()).subtracting(before))
        }
        #expect(sent.reduce(Set<String>()) { $0.union($1) } == Set(tokens))
        #expect(sent.map(\.count).reduce(0, +) == tokens.count)
        #expect(sent.allSatisfy { !$0.isEmpty })
    }

    @Test func certificateAuthenticationSendsNoProviderToken() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        let ca = setup.directory.appendingPathComponent("ca.pem").path
        let result = try await CLI.run([
            "send", "--cert", setup.directory.appendingPathComponent("client.pem").path, "--cert-key",
            setup.directory.appendingPathComponent("client.key").path, "--topic", "com.example.chatter", "--host",
            "127.0.0.1",
            "--port", "\(setup.server.port)", "--ca", ca, "--token", Self.token("0000"), "--body", "Hi",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let log = setup.directory.appendingPathComponent("requests.ndjson")
        #expect(try LocalServer.values("client", inLog: log) == ["com.example.chatter"])
        #expect(try LocalServer.values("authorization", inLog: log) == [""])
        #expect(
            try await CLI.run(setup.base + ["--cert", "c.pem", "--token", Self.token("0000"), "--body", "x"]).status
                == 2)
    }

    @Test func aProviderKeyOthersCanReadIsWarnedAboutAndTheSendGoesOn() async throws {
        let setup = try Setup()
        defer { setup.stop() }
        chmod(setup.keyFile, 0o644)
        let result = try await CLI.run(setup.base + ["--token", Self.token("0000"), "--body", "Hi"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "pushbutton: warning: the provider key (--key) '\(setup.keyFile)' is open to every user of this "
                + "machine (mode 0644): make it private with chmod 600 '\(setup.keyFile)'")
        #expect(lines.last?.hasPrefix("sent 1: delivered 1") == true)
        chmod(setup.keyFile, 0o600)
        let quiet = try await CLI.run(setup.base + ["--token", Self.token("0000"), "--body", "Hi"])
        #expect(quiet.status == 0 && !quiet.stderr.contains("warning"), "\(quiet.stderr)")
    }

    @Test func wrongCommandLinesAreUsageErrors() async throws {
        #expect(try await CLI.run(["send", "--key-id", "K"]).status == 2)
        let setup = try Setup()
        defer { setup.stop() }
        #expect(
            try await CLI.run(setup.base + ["--token", Self.token("0000"), "--shard", "4/3", "--body", "x"]).status == 2
        )
        #expect(try await CLI.run(setup.base + ["--token", Self.token("0000")]).status == 2)
        let noKey = try await CLI.run([
            "send", "--key", "/no/key.p8", "--key-id", "K", "--team-id", "T", "--topic", "t", "--token",
            Self.token("0000"), "--body", "x",
        ])
        #expect(
            noKey.status == 1 && noKey.stderr.hasPrefix("pushbutton: error: the provider key: cannot read the key file")
        )
    }
}

/// The NDJSON result lines, exactly.
@Suite struct SendResultLineTests {
    @Test func resultLinesHaveTheDocumentedKeys() throws {
        let id = UUID(uuidString: "4F1A7C2E-0000-4000-8000-000000000001")!
        let notification = APNsNotification(
            deviceToken: try DeviceToken(String(repeating: "ab", count: 32)), payload: [], topic: "com.example.app",
            apnsID: id)
        let token = String(repeating: "ab", count: 32)
        func line(_ result: APNsResult) -> String {
            String(decoding: JSONWriter.compact(SendSummary.json(notification, result)), as: UTF8.self)
        }
        #expect(
            line(.delivered(apnsID: id, uniqueID: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"))
                == #"{"apns_id":"4f1a7c2e-0000-4000-8000-000000000001","apns_unique_id":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","status":"delivered","token":"\#(token)"}"#
        )
        #expect(
            line(.delivered(apnsID: id, uniqueID: nil))
                == #"{"apns_id":"4f1a7c2e-0000-4000-8000-000000000001","status":"delivered","token":"\#(token)"}"#)
        #expect(
            line(.delivered(apnsID: id, uniqueID: #"odd "unique" id"#)).contains(
                #""apns_unique_id":"odd \"unique\" id""#))
        #expect(
            line(
                .rejected(
                    apnsID: id, status: 410, reason: .unregistered, unregisteredAt: Date(timeIntervalSince1970: 1)))
                == #"{"apns_id":"4f1a7c2e-0000-4000-8000-000000000001","http_status":410,"reason":"Unregistered","status":"rejected","token":"\#(token)","unregistered_at":1000}"#
        )
    }
}
