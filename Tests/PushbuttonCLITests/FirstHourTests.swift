import Foundation
import Pushbutton
import PushbuttonAPNs
import Testing

/// What a newcomer met in the first hour (issue 13), on the built binary: text defects, checks that need
/// no manifest, conflicting flags, unknown locales, and results a pipeline can join back to its input.
@Suite(.timeLimit(.minutes(2))) struct FirstHourTests {
    @Test func lintsUsageLineClosesItsBracket() async throws {
        let help = try await OffPool.cli(["lint", "--help"])
        #expect(help.stdout.hasPrefix("USAGE: pushbutton lint [options] MANIFEST [PAYLOAD...]\n"))
    }

    @Test func quietLintStillCountsEverything() async throws {
        let quiet = try await OffPool.cli(["lint", "-q", "Examples/manifest.json"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "Examples/manifest.json: 0 errors, 0 warnings, 1 note\n")
    }

    @Test func strictQuietLintFailsOnWarnings() async throws {
        let payload = #"{"aps": {"alert": "x", "category": "message", "sond": "default"}}"#
        let lenient = try await OffPool.cli(["lint", "-q", "Examples/manifest.json", "-"], stdin: payload)
        #expect(lenient.status == 0 && lenient.stdout.hasSuffix("<stdin>: 0 errors, 1 warning, 0 notes\n"))
        let strict = try await OffPool.cli(
            ["lint", "--strict", "-q", "Examples/manifest.json", "-"], stdin: payload)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("<stdin>:1:47: warning: aps.sond: 'sond' is not an aps key"))
        #expect(strict.stdout.hasSuffix("<stdin>: 0 errors, 1 warning, 0 notes\n"))
    }

    @Test func aPayloadWhereTheManifestBelongsIsRecognised() async throws {
        let result = try await OffPool.cli(["lint", "Examples/payloads/message.json", "Examples/manifest.json"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr
                == "pushbutton: error: Examples/payloads/message.json looks like a payload (it has an 'aps' dictionary), "
                + "not a manifest: the manifest comes first, as in pushbutton lint MANIFEST [PAYLOAD...]\n")
        let simulate = try await OffPool.cli([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/payloads/message.json", "--tap",
            "like",
        ])
        #expect(simulate.status == 1 && simulate.stderr.contains("looks like a payload"))
    }

    @Test func payloadChecksWhatItCanWithoutAManifest() async throws {
        let result = try await OffPool.cli([
            "payload", "--category", "message", "--title", "Anna", "--body", String(repeating: "x", count: 5_000),
            "--badge", "-1", "--button", "like=pushbutton.calback", "--button", "go=pushbutton.callback",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        for code in ["[payload-too-large]", "[value-range]", "[unknown-builtin-action]", "[action-arguments]"] {
            #expect(result.stderr.contains(code), "\(code) missing from \(result.stderr)")
        }
        #expect(result.stderr.contains("hint: did you mean 'pushbutton.callback'?"))
        #expect(result.stderr.hasSuffix("pushbutton: error: the payload does not pass validation (see above)\n"))
        // The manifest's own checks are not guessed at without it.
        let fine = try await OffPool.cli([
            "payload", "--category", "anything", "--body", "Hi", "--button", "x=app_action",
        ])
        #expect(fine.status == 0 && fine.stderr.isEmpty, "\(fine.stderr)")
    }

    @Test func dynamicButtonsWantMutableContent() async throws {
        let built = try await OffPool.cli(["payload", "--body", "Party?", "--define", "going=Going"])
        #expect(built.status == 0 && built.stderr.isEmpty, "\(built.stderr)")
        #expect(try JSONParser.parse(built.stdout)["aps"]?["mutable-content"] == 1)
        let payload =
            #"{"aps": {"alert": "Party?", "category": "pushbutton.dyn.930f3a2086dc8813"}, "pushbutton": {"v": 1, "define": [{"id": "going", "title": "Going"}]}}"#
        let lint = try await OffPool.cli(["lint", "Examples/manifest.json", "-"], stdin: payload)
        #expect(lint.status == 0)
        #expect(
            lint.stdout.contains(
                "<stdin>:1:2: warning: aps.mutable-content: dynamic buttons without \"mutable-content\": 1"))
        #expect(
            try await OffPool.cli(["lint", "--strict", "Examples/manifest.json", "-"], stdin: payload).status == 1)
        let example = try await OffPool.cli(["lint", "Examples/manifest.json", "Examples/payloads/dynamic.json"])
        #expect(example.stdout.contains("Examples/payloads/dynamic.json: 0 errors, 0 warnings, 0 notes"))
    }

    @Test(arguments: [
        (["--payload", "Examples/payloads/message.json", "--title", "Hi"], "--payload and payload flags (--title)"),
        (["--sandbox", "--host", "127.0.0.1", "--body", "Hi"], "--sandbox (Apple's development APNs) and --host"),
    ])
    func sendRefusesConflictingFlags(extra: [String], message: String) async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("AuthKey.p8").path
        try Data(try P256PrivateKey.generate().pemRepresentation.utf8).write(to: URL(fileURLWithPath: key))
        chmod(key, 0o600)
        let result = try await OffPool.cli(
            [
                "send", "--key", key, "--key-id", "K", "--team-id", "T", "--topic", "com.example.chatter", "--token",
                String(repeating: "ab", count: 32),
            ] + extra)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("pushbutton: error: \(message)"), "\(result.stderr)")
    }

    @Test func anUnknownLocaleIsNamedWithTheAvailableOnes() async throws {
        let result = try await OffPool.cli([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
            "--locale", "xx",
        ])
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "pushbutton: warning: --locale 'xx': no titles in that language, so they are shown in en "
                + "(available: en, de, fr)\n")
        let regional = try await OffPool.cli([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
            "--locale", "fr-CA",
        ])
        #expect(regional.status == 0 && regional.stderr.isEmpty)
    }

    @Test func statsSaysWhatWasMeasured() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = directory.appendingPathComponent("taps.sqlite").path
        let simulate = try await OffPool.cli([
            "simulate", "Examples/payloads/message.json", "--manifest", "Examples/manifest.json", "--tap", "like",
            "--outbox", outbox,
        ])
        #expect(simulate.status == 0)
        let stats = try await OffPool.cli(["stats", outbox])
        #expect(stats.stdout.hasPrefix("1 response (no deliveries recorded, so no rates per delivery)\n"))
        #expect(stats.stdout.contains(" s from arrival to tap") && !stats.stdout.contains("after delivery"))
    }

    /// Results come in completion order; each names its input line, and an NDJSON line's id is echoed.
    @Test func resultsJoinBackToTheirInput() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let dead = String(repeating: "de", count: 32)
        let mock = try LocalServer(mockAPNs: [
            "--self-signed", directory.path, "--unregistered", dead, "--quiet", "--duration", "300",
        ])
        defer { mock.stop() }
        let base = [
            "send", "--key", directory.path + "/AuthKey_MOCKKEY001.p8", "--key-id", "MOCKKEY001", "--team-id",
            "MOCKTEAM01", "--topic", "com.example.chatter", "--host", "127.0.0.1", "--port", String(mock.port), "--ca",
            directory.path + "/ca.pem", "--body", "Hi",
        ]
        let file = directory.appendingPathComponent("tokens.txt")
        let alive = (1...3).map { String(format: "%064x", $0) }
        try Data("# devices\n\(alive[0])\n\n\(dead)\n\(alive[1])\nnot-a-token\n\(alive[2])\n".utf8).write(to: file)
        let fromFile = try await OffPool.cli(base + ["--tokens", file.path])
        #expect(fromFile.status == 1)
        let results = try fromFile.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        var byLine: [Int64: JSONValue] = [:]
        for result in results { byLine[result["line"]?.integerValue ?? 0] = result }
        #expect(byLine.keys.sorted() == [2, 4, 5, 6, 7])
        #expect(byLine[2]?["token"] == .string(alive[0]) && byLine[2]?["status"] == "delivered")
        #expect(byLine[4]?["token"] == .string(dead) && byLine[4]?["reason"] == "Unregistered")
        #expect(byLine[6]?["status"] == "invalid" && byLine[7]?["token"] == .string(alive[2]))

        let ndjson = [
            #"{"token":"\#(alive[0])","id":"order-17"}"#, "", #"{"token":"\#(dead)","id":"x \"quoted\" ✓"}"#,
            #"{"token":"\#(alive[1])"}"#, #"{"token":"\#(alive[2])","id":5}"#,
        ].joined(separator: "\n")
        let fromInput = try await OffPool.cli(base, stdin: ndjson)
        let lines = try fromInput.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        var byID: [Int64: JSONValue] = [:]
        for line in lines { byID[line["line"]?.integerValue ?? 0] = line }
        #expect(byID.keys.sorted() == [1, 3, 4, 5])
        #expect(byID[1]?["id"] == "order-17" && byID[1]?["status"] == "delivered")
        #expect(byID[3]?["id"] == .string(#"x "quoted" ✓"#) && byID[3]?["status"] == "rejected")
        #expect(byID[4]?["id"] == nil && byID[4]?["status"] == "delivered")
        #expect(byID[5]?["status"] == "invalid" && byID[5]?["error"] == "\"id\" must be a string, not a number")
    }
}
