import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hardening suite's files, flags and output: whatever a hostile user gives `pushbutton`, it ends with
/// a definite status and at most one line on stderr, never a trap (status 132/133/134 or a backtrace).
@Suite(.timeLimit(.minutes(3))) struct HostileInputTests {
    /// A throwaway provider key (the mocks here do not check tokens, or accept any key with --no-token-check).
    static let key: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushbutton-hostile-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("AuthKey_MOCKKEY001.p8").path
        if !FileManager.default.fileExists(atPath: path) {
            try? Data((try? P256PrivateKey.generate().pemRepresentation)?.utf8 ?? "".utf8).write(
                to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
        }
        return path
    }()
    static let sendBase = [
        "send", "--key", key, "--key-id", "MOCKKEY001", "--team-id", "MOCKTEAM01", "--topic", "com.example",
    ]

    /// A trap shows as a signal status or a Swift runtime backtrace on stderr.
    static func expectNoTrap(
        _ result: CLI.Result, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(![132, 133, 134, 139].contains(result.status), "\(what): trapped", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), "\(what): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Backtrace"), "\(what): \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func numbersOutOfRangeAreUsageErrorsNamingTheRange() async throws {
        let hostile = [
            "-1", "0", "70000", "99999999999999999999", "1e300", "nan", "inf", "-inf", "0x10", "", " 5", "1.5",
        ]
        var cases: [([String], String)] = []
        // A value in range sends to a closed local port and fails fast (status 1), never to APNs.
        let send =
            Self.sendBase + [
                "--token", String(repeating: "ab", count: 32), "--body", "x", "--host", "127.0.0.1", "--h2c",
                "--timeout", "1",
            ]
        for value in hostile {
            // --duration: a value in range (port 0) starts the mock; it stops at once.
            cases.append((["mock-apns", "--h2c", "--quiet", "--duration", "0.1", "--port", value], "--port"))
            cases.append(
                (
                    ["mock-apns", "--h2c", "--quiet", "--duration", "0.1", "--port", "0", "--max-streams", value],
                    "--max-streams"
                ))
            cases.append((send + ["--port", "9", "--in-flight", value], "--in-flight"))
            cases.append((send + ["--port", "9", "--connections", value], "--connections"))
            cases.append((send + ["--port", value], "--port"))
            for option in ["--base-backoff", "--max-backoff", "--request-timeout", "--time-limit", "--max-attempts"] {
                cases.append((["outbox", "status", "/nonexistent/outbox.sqlite", option, value], option))
            }
            cases.append((["payload", "--body", "x", "--relevance-score", value], "--relevance-score"))
            // serve checks its flags before it reads the configuration.
            for option in ["--port", "--duration"] {
                cases.append((["serve", "--config", "/nonexistent/pushbutton.json", option, value], option))
            }
            cases.append(
                (
                    ["lint", "Examples/manifest.json", "Examples/payloads/message.json", "--priority", value],
                    "--priority"
                ))
        }
        // Out of range for every option here; the others are in range for some options and must only not trap.
        let alwaysInvalid: Set<String> = ["-1", "99999999999999999999", "1e300", "nan", "inf", "-inf", "", " 5"]
        var refused = 0
        let commands = cases.map(\.0)
        let results = try await OffPool.run { try commands.map { try CLI.runBlocking($0) } }
        for ((arguments, option), result) in zip(cases, results) {
            Self.expectNoTrap(result, arguments.joined(separator: " "))
            if alwaysInvalid.contains(arguments.last!) || result.status == 2 {
                #expect(result.status == 2, "\(arguments)")
                #expect(result.stderr.contains("\(option) must be"), "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1)
                refused += 1
            }
        }
        print("hostile flags: \(cases.count) cases, \(refused) refused with status 2, 0 traps")
    }

    @Test func outputThatGoesAwayEndsTheCommandQuietly() async throws {
        // A closed pipe: status 141 and nothing on stderr, for a command that prints a lot.
        let process = ChildProcess()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        process.arguments = ["builtins", "--json"]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try pipe.fileHandleForReading.close()
        try process.run()
        let exit = try await CLI.exit(of: process)
        let stderr = String(decoding: DescriptorReader.readToEnd(errors.fileHandleForReading), as: UTF8.self)
        #expect(exit.status == 141 || exit.signaled, "\(stderr)")
        #expect(stderr.isEmpty, "\(stderr)")
        // A full disk: one line and status 1.
        let full = ChildProcess()
        full.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        full.arguments = ["builtins"]
        full.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let fullErrors = Pipe()
        full.standardError = fullErrors
        try full.run()
        let fullExit = try await CLI.exit(of: full)
        let fullStderr = String(decoding: DescriptorReader.readToEnd(fullErrors.fileHandleForReading), as: UTF8.self)
        #expect(fullExit.status == 1)
        #expect(fullStderr == "pushbutton: error: cannot write to standard output: No space left on device\n")
    }

    /// `pushbutton send … | head -1`: the transports ignore SIGPIPE, so the closed pipe is a write error
    /// the console must end quietly on.
    @Test func aBulkSendWhoseReaderGoesAwayEndsQuietly() async throws {
        let mock = try LocalServer(mockAPNs: ["--h2c", "--no-token-check", "--quiet", "--duration", "300"])
        defer { mock.stop() }
        let script = """
            "$1" send --key "$2" --key-id MOCKKEY001 --team-id MOCKTEAM01 --topic com.example --host 127.0.0.1 \\
              --port \(mock.port) --h2c --tokens <(for i in $(seq 3000); do printf 'cd%062x\\n' "$i"; done) --body hi \\
              2>"$3" | head -1 >/dev/null
            echo "${PIPESTATUS[0]}"
            """
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let errors = directory.appendingPathComponent("stderr").path
        let result = try await OffPool.program(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", script, "bash", CLI.productsDirectory.appendingPathComponent("pushbutton").path, Self.key, errors])
        #expect(result.stdout == "141\n", "\(result.stdout) \(result.stderr)")
        #expect(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "x").isEmpty)
    }

    @Test func theMockKeepsServingWhenItsLogGoesAway() async throws {
        let process = ChildProcess()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        process.arguments = ["mock-apns", "--h2c", "--port", "0", "--no-token-check", "--duration", "300"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            CLI.waitForExit(process)
        }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        let port = try #require(
            (try JSONSerialization.jsonObject(with: line) as? [String: Any])?["port"] as? Int)
        try output.fileHandleForReading.close()  // the log reader goes away
        for round in 0..<3 {
            let sent = try await OffPool.cli(
                Self.sendBase + [
                    "--host", "127.0.0.1", "--port", "\(port)", "--h2c", "--token", MockToken.make(round), "--body",
                    "hi",
                ])
            Self.expectNoTrap(sent, "send \(round)")
            #expect(sent.status == 0, "round \(round): \(sent.stderr)")
        }
        #expect(process.isRunning)
    }

    @Test func anEncryptedKeyIsRefusedWithoutAPrompt() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("encrypted.p8").path
        let made = try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes256", "-pass",
                "pass:secret", "-out", key,
            ])
        #expect(made.status == 0)
        var arguments = Self.sendBase
        arguments[2] = key
        let result = try await CLI.run(arguments + ["--host", "127.0.0.1", "--port", "9", "--h2c"], stdin: "secret\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the key is encrypted"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func filesFromFIFOsAndProcessSubstitutionAreRead() async throws {
        let mock = try LocalServer(mockAPNs: ["--h2c", "--no-token-check", "--quiet", "--duration", "300"])
        defer { mock.stop() }
        let script = """
            set -e
            dir=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
            mkfifo "$dir/tokens" "$dir/payload"
            printf '%s\\n%s\\n' \(MockToken.make(1)) \(MockToken.make(2)) >"$dir/tokens" &
            printf '{"aps":{"alert":"from a fifo"}}' >"$dir/payload" &
            "$1" send --key "$2" --key-id MOCKKEY001 --team-id MOCKTEAM01 --topic com.example --host 127.0.0.1 \\
              --port \(mock.port) --h2c --tokens "$dir/tokens" --payload "$dir/payload"
            "$1" lint <(cat Examples/manifest.json) >/dev/null
            """
        let result = try await CLI.run(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", script, "bash", CLI.productsDirectory.appendingPathComponent("pushbutton").path, Self.key])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").filter { $0.contains("\"delivered\"") }.count == 2, "\(result.stdout)")
    }

    @Test func ndjsonLinesKeepBigIntegersAndInvalidUTF8IsReported() async throws {
        let mock = try LocalServer(mockAPNs: ["--h2c", "--no-token-check", "--duration", "300"])
        defer { mock.stop() }
        let big = "123456789012345678901234567890"
        var input = #"{"token":"\#(MockToken.make(1))","payload":{"aps":{"alert":"hi"},"n":\#(big)}}"# + "\n"
        input += #"{"token":"\#(MockToken.make(2))","payload":{"aps":{"alert":"caf"# + "\u{FFFD}" + "\"}}}\n"
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The second line's "é" written as a lone Latin-1 byte: invalid UTF-8.
        var bytes = Array(input.utf8)
        let marker = Array("\u{FFFD}".utf8)
        if let range = bytes.firstRange(of: marker) { bytes.replaceSubrange(range, with: [0xE9]) }
        let file = directory.appendingPathComponent("lines.ndjson")
        try Data(bytes).write(to: file)
        let result = try await CLI.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "\"$1\" send --key \"$3\" --key-id MOCKKEY001 --team-id MOCKTEAM01 --topic com.example --host 127.0.0.1 --port \(mock.port) --h2c < \"$2\"",
                "sh", CLI.productsDirectory.appendingPathComponent("pushbutton").path, file.path, Self.key,
            ])
        Self.expectNoTrap(result, "send")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.contains("\"invalid\"") && $0.contains("\"line\":2") && $0.contains("UTF-8") },
            "\(lines)")
        #expect(lines.contains { $0.contains("\"delivered\"") }, "\(lines)")
        // The digits themselves are checked where the line is read (SendLineTests): here, that it is sent.
    }

    @Test func headerValuesWithLineBreaksAreRefused() async throws {
        for (option, value) in [
            ("--topic", "com.example\r\nx-injected: 1"), ("--collapse-id", "a\nb"), ("--push-type", "alert\u{1B}[2J"),
        ] {
            var arguments = Self.sendBase + ["--token", String(repeating: "ab", count: 32), "--body", "x"]
            if let index = arguments.firstIndex(of: option) {
                arguments[index + 1] = value
            } else {
                arguments += [option, value]
            }
            let result = try await CLI.run(arguments)
            #expect(result.status == 2, "\(option): \(result.stderr)")
            #expect(result.stderr.contains("control character"), "\(result.stderr)")
        }
    }

    @Test func terminalOutputShowsControlCharactersEscaped() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("m.json")
        try Data(
            #"{"version": 1, "categories": [{"identifier": "a\u001b[2Jb\nforged: error", "actions": [{"identifier": "x", "title": "T"}]}]}"#
                .utf8
        ).write(to: manifest)
        let result = try await CLI.run(["lint", manifest.path])
        #expect(result.status == 1)
        #expect(!result.stdout.contains("\u{1B}") && !result.stderr.contains("\u{1B}"))
        #expect(result.stdout.contains("identifier-control-character"), "\(result.stdout)")
        #expect(!result.stdout.split(separator: "\n").contains { $0.hasPrefix("forged") })
    }

    @Test func thePreviewStaysWellFormedWhateverTheTextHolds() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = directory.appendingPathComponent("p.json")
        try Data(
            #"{"aps":{"category":"message","alert":{"title":"<svg>&\u0000\u001b","body":"]]><!-- \uFFFE \"'"}}}"#.utf8
        ).write(to: payload)
        let svg = directory.appendingPathComponent("p.svg")
        let result = try await CLI.run([
            "preview", payload.path, "--manifest", "Examples/manifest.json", "--app-name", "A\u{7}\u{0}<&",
            "-o", directory.appendingPathComponent("p").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        Self.expectNoTrap(result, "preview")
        // Python's XML parser, strict about well-formedness (and about characters XML does not allow).
        let parsed = try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", svg.path])
        #expect(parsed.status == 0, "\(parsed.stderr)")
    }

    @Test func theCurlTransportIsGone() async throws {
        let result = try await CLI.run(
            Self.sendBase + ["--token", String(repeating: "ab", count: 32), "--transport", "curl"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option '--transport'"))
    }

    @Test func theMockRemovesItsTemporaryDirectory() async throws {
        let mock = try LocalServer(mockAPNs: ["--quiet", "--duration", "1"])
        let ca = try #require(
            (try JSONSerialization.jsonObject(with: Data(mock.firstLine.utf8)) as? [String: Any])?["ca"] as? String)
        #expect(FileManager.default.fileExists(atPath: ca))
        try await CLI.exit(of: mock.process)
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: ca).deletingLastPathComponent().path))
    }
}

/// Distinct valid device tokens for the hardening tests.
enum MockToken {
    static func make(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return "cd" + String(repeating: "0", count: 62 - hex.count) + hex
    }
}
