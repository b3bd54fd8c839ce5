import Foundation
import Testing

/// `pushbutton channels …`, `pushbutton send --channel` and `pushbutton send --stats`, run as a user would,
/// against `pushbutton mock-apns`.
@Suite(.timeLimit(.minutes(5))) struct ChannelsCommandTests {
    static let bundleID = "com.example.scores"
    static let update = #"{"aps":{"timestamp":1733000000,"event":"update","content-state":{"score":"2-1"}}}"#

    /// A running mock and the credentials and address every command needs.
    struct Mock {
        let server: LocalServer
        let directory: URL
        let options: [String]

        init(_ extra: [String] = []) throws {
            directory = try CLI.temporaryDirectory()
            server = try LocalServer(mockAPNs: ["--self-signed", directory.path, "--duration", "300"] + extra)
            options = [
                "--key", directory.path + "/AuthKey_MOCKKEY001.p8", "--key-id", "MOCKKEY001", "--team-id", "MOCKTEAM01",
                "--topic", ChannelsCommandTests.bundleID, "--host", "127.0.0.1", "--port", String(server.port), "--ca",
                directory.path + "/ca.pem",
            ]
        }

        func run(_ arguments: [String], stdin: String = "") async throws -> CLI.Result {
            try await CLI.run(arguments + options, stdin: stdin)
        }

        func payloadFile(_ text: String = ChannelsCommandTests.update) throws -> String {
            let path = directory.path + "/update.json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        /// Stops the mock and returns its log lines.
        func finish() -> [String] {
            server.stop()
            defer { try? FileManager.default.removeItem(at: directory) }
            return server.remainingOutput().split(separator: "\n").map(String.init)
        }
    }

    @Test func createListReadAndDeleteAChannel() async throws {
        let mock = try Mock()
        let created = try await mock.run(["channels", "create", "--storage-policy", "most-recent"])
        #expect(created.status == 0, "\(created.stderr)")
        let id = created.stdout.trimmingCharacters(in: .newlines)
        #expect(Data(base64Encoded: id) != nil && created.stdout == id + "\n")
        #expect(created.stderr.hasPrefix("created channel \(id) for \(Self.bundleID) (most-recent-message-stored; "))

        let second = try await mock.run(["channels", "create", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        let secondID = try #require(object["channel_id"] as? String)
        #expect(object["message_storage_policy"] as? Int == 0 && object["push_type"] as? String == "LiveActivity")
        #expect((object["apns_request_id"] as? String).flatMap(UUID.init(uuidString:)) != nil && second.stderr.isEmpty)

        let list = try await mock.run(["channels", "list"])
        #expect(list.status == 0 && list.stdout == "\(id)\n\(secondID)\n")
        let read = try await mock.run(["channels", "read", id])
        #expect(read.status == 0 && read.stdout == "\(id) most-recent-message-stored LiveActivity\n")

        let deleted = try await mock.run(["channels", "delete", id])
        #expect(deleted.status == 0 && deleted.stdout == "deleted \(id)\n")
        let gone = try await mock.run(["channels", "read", id])
        #expect(gone.status == 1 && gone.stdout.isEmpty)
        #expect(
            gone.stderr.hasPrefix(
                "pushbutton: error: channels read: rejected: 410 ChannelNotRegistered (apns-request-id "))
        #expect(gone.stderr.split(separator: "\n").count == 1)
        #expect(try await mock.run(["channels", "list", "--json"]).stdout.contains(#""channels":["\#(secondID)"]"#))

        let log = mock.finish()
        let operations = log.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["operation"] as? String
        }
        #expect(operations == ["create", "create", "list", "read", "delete", "read", "list"], "\(log)")
    }

    @Test func sendBroadcastsToAChannelAndReportsAGoneOne() async throws {
        let mock = try Mock()
        let id = try await mock.run(["channels", "create"]).stdout.trimmingCharacters(in: .newlines)
        let payload = try mock.payloadFile()
        let sent = try await mock.run(["send", "--channel", id, "--payload", payload, "--priority", "5"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.hasPrefix("channel \(id): delivered ") && sent.stdout.split(separator: "\n").count == 1)

        _ = try await mock.run(["channels", "delete", id])
        let gone = try await mock.run(["send", "--channel", id, "--payload", payload])
        #expect(gone.status == 1)
        #expect(gone.stdout.hasPrefix("channel \(id): rejected ") && gone.stdout.contains(": 410 ChannelNotRegistered"))
        #expect(gone.stderr.contains("the channel does not exist in this environment"))
        let log = mock.finish()
        #expect(log.contains { $0.contains(#""operation":"broadcast""#) && $0.contains(#""status":200"#) })
        #expect(
            log.contains {
                $0.contains(#""operation":"broadcast""#) && $0.contains(#""reason":"ChannelNotRegistered""#)
            })
    }

    @Test func statsGoToStandardErrorAndLeaveTheResultsClean() async throws {
        let dead = String(repeating: "d", count: 63) + "2"
        let mock = try Mock(["--unregistered", dead, "--quiet"])
        let alive = (1...3).map { String(repeating: "a", count: 63) + String($0) }
        let input = (alive + [dead]).map { #"{"token":"\#($0)"}"# }.joined(separator: "\n")
        let result = try await mock.run(["send", "--stats", "--body", "Lunch?"], stdin: input)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)") }
        #expect(!result.stdout.contains("stats:"))
        for expected in [
            "stats: sent 4", "stats: delivered 3", "stats: rejected 1", "stats: rejected.Unregistered 1",
            "stats: retried 0", "stats: latency.count 4", "stats: connections.opened 1", "stats: tokens.minted 1",
        ] {
            #expect(result.stderr.contains(expected + "\n"), "\(expected) in \(result.stderr)")
        }
        for token in alive + [dead] { #expect(!result.stderr.contains(token)) }
        _ = mock.finish()
    }

    @Test(arguments: [
        (["channels", "read"], "channels read needs the channel id"),
        (["channels", "create", "YWJj"], "channels create takes no channel id"),
        (["channels", "create", "--storage-policy", "forever"], "--storage-policy 'forever' is not a storage policy"),
        (["channels", "list", "--storage-policy", "none"], "--storage-policy goes with channels create"),
        (["channels", "rename"], "unknown channels action 'rename'"),
        (
            ["send", "--channel", "YWJj", "--token", String(repeating: "a", count: 64), "--body", "x"],
            "--token do not go with it"
        ),
        (
            ["send", "--channel", "YWJj", "--push-type", "alert", "--body", "x"],
            "a broadcast's push type is liveactivity"
        ),
        (["send", "--channel", "YWJj"], "give the broadcast's payload"),
        (["send", "--channel", "not base64", "--body", "x", "--push-type", "liveactivity"], "is not base64 text"),
    ])
    func wrongCommandLinesExitTwoWithOneLine(arguments: [String], message: String) async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.path + "/AuthKey.p8"
        let made = try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/openssl"),
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        try #require(made.status == 0, "\(made.stderr)")
        // Port 9 (discard): nothing is listening, and nothing may be sent before the command line is refused.
        let options = [
            "--key", key, "--key-id", "K", "--team-id", "T", "--topic", Self.bundleID, "--host", "127.0.0.1", "--port",
            "9",
        ]
        let result = try await CLI.run(arguments + options)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
