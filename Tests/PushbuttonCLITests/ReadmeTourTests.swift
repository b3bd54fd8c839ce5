import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The README's ten-minute tour, run exactly as written, in a scratch directory with `Examples/` in it:
/// every `$ ` line of its console blocks, in order, with `# exits N` giving the expected status (0
/// otherwise), a trailing `&` starting a server in the background, and `kill %1` stopping it. Every output
/// line shown (except a lone `…`) must be a line of what the command printed, compared with ids, times,
/// rates and ports masked on both sides, so a wrong count cannot pass. The mock's port 2197 is replaced by
/// a free one, so parallel runs cannot collide.
@Suite(.timeLimit(.minutes(3))) struct ReadmeTourTests {
    struct Step {
        var command: String
        var expectedStatus: Int32
        var background: Bool
        var expectedLines: [String]
    }

    static func steps() throws -> [Step] {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("## Ten-minute tour") }) else { return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        var steps: [Step] = []
        var inConsole = false
        for line in lines[start..<end] {
            if line.hasPrefix("```") {
                inConsole = line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                var command = String(line.dropFirst(2))
                var status: Int32 = 0
                if let range = command.range(of: #"\s+# exits (\d+)$"#, options: .regularExpression) {
                    status = Int32(command[range].split(separator: " ").last!)!
                    command.removeSubrange(range)
                }
                let background = command.hasSuffix(" &")
                if background { command.removeLast(2) }
                steps.append(Step(command: command, expectedStatus: status, background: background, expectedLines: []))
            } else if !steps.isEmpty, line != "…", !line.trimmingCharacters(in: .whitespaces).isEmpty {
                steps[steps.count - 1].expectedLines.append(line)
            }
        }
        return steps
    }

    /// Replaces what differs from run to run: UUIDs and the simulator's ids, ISO dates, epoch milliseconds,
    /// durations, rates and ports. Lines are compared without leading and trailing spaces.
    static func masked(_ line: String) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)
        let masks: [(String, String)] = [
            (#"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, "<uuid>"),
            (#"sim-[0-9a-f]{8}"#, "sim-<id>"),
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, "<date>"),
            (#""unregistered_at":\d+"#, #""unregistered_at":<ms>"#),
            (#"127\.0\.0\.1:\d+"#, "127.0.0.1:<port>"),
            (#""port":\d+"#, #""port":<port>"#),
            (#"\(\d+/s\)"#, "(<rate>/s)"),
            (#"\b\d+(\.\d+)? (ms|s)\b"#, "<duration>"),
        ]
        for (pattern, replacement) in masks {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    @Test func masksOnlyWhatVaries() {
        #expect(
            Self.masked("sent 3: delivered 2, rejected 1 (Unregistered: 1), failed 0 in 0.01 s (420/s)")
                == "sent 3: delivered 2, rejected 1 (Unregistered: 1), failed 0 in <duration> (<rate>/s)")
        #expect(Self.masked("  5. Completion handler called 1 time(s), after 1.2 ms") != Self.masked("5. x"))
        #expect(
            Self.masked("5. Completion handler called 2 time(s), after 1.2 ms")
                != Self.masked("5. Completion handler called 1 time(s), after 3.0 ms"))
        #expect(Self.masked("oldest pending: 0 s") == Self.masked("oldest pending: 12 s"))
        #expect(Self.masked("pending:        1") != Self.masked("pending:        2"))
    }

    @Test func theTourRunsAsWritten() async throws {
        let steps = try Self.steps()
        #expect(steps.count >= 10)
        #expect(steps.contains { $0.command.hasPrefix("pushbutton send") } && steps.contains(where: \.background))
        #expect(steps.contains { $0.command == "kill %1" })
        #expect(steps.contains { $0.expectedLines.contains { $0.rangeOfCharacter(from: .decimalDigits) != nil } })
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("Examples"),
            withDestinationURL: CLI.packageRoot.appendingPathComponent("Examples"))
        let port = try Self.freePort()
        var servers: [Background] = []
        defer { servers.forEach { $0.kill() } }
        for step in steps {
            let command = step.command.replacingOccurrences(of: "--port 2197", with: "--port \(port)")
            let result: CLI.Result
            if step.background {
                let server = try Background(command, in: directory, environment: Self.environment)
                servers.append(server)
                result = CLI.Result(status: 0, stdout: server.firstLine + "\n", stderr: "")
            } else if command == "kill %1" {
                let server = try #require(servers.first, "kill %1 without a background command")
                result = server.terminate()
            } else {
                result = try await Self.shell(command, in: directory)
            }
            #expect(result.status == step.expectedStatus, "\(command)\n\(result.stderr)")
            let printed = Set((result.stdout + result.stderr).components(separatedBy: "\n").map(Self.masked))
            for line in step.expectedLines {
                #expect(
                    printed.contains(Self.masked(line)), "'\(line)' missing from the output of: \(command)\n\(printed)")
            }
        }
        // The tour left nothing in the repository: everything it wrote is in the scratch directory.
        for name in ["preview.html", "taps.sqlite", "mock/ca.pem"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)")
        }
    }

    private static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CLI.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    private static func shell(_ command: String, in directory: URL) async throws -> CLI.Result {
        try await CLI.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory, environment: environment)
    }

    /// A port nothing listens on now (bound to 0 and released).
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A command started with `&`: its output goes to files, its first line (the mock's "listening" line)
    /// is awaited, and `kill %1` sends it SIGTERM and collects what it printed.
    final class Background {
        let process = ChildProcess()
        let firstLine: String
        private let out: URL
        private let err: URL

        init(_ command: String, in directory: URL, environment: [String: String]) throws {
            out = directory.appendingPathComponent(".background-\(UUID().uuidString).out")
            err = directory.appendingPathComponent(".background-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec " + command]
            process.currentDirectoryURL = directory
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
            let deadline = Date().addingTimeInterval(150)  // generous: for the failure, not a claim of speed
            var line: String?
            while line == nil && Date() < deadline && process.isRunning {
                let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
                if let newline = text.firstIndex(of: "\n") { line = String(text[..<newline]) }
                // Another process writing to a file (no pipe to block on): polled off the pool until its first line.
                if line == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            guard let line else {
                if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
                throw CocoaError(.fileReadCorruptFile)
            }
            firstLine = line
        }

        /// SIGTERM, as `kill %1` sends; what it printed after its first line.
        func terminate() -> CLI.Result {
            process.terminate()
            let exit = CLI.waitForExit(process)
            let stdout = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
            return CLI.Result(
                status: exit.status,
                stdout: String(stdout.drop { $0 != "\n" }.dropFirst()),
                stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        }

        func kill() {
            if process.isRunning {
                Glibc.kill(process.processIdentifier, SIGKILL)
                CLI.waitForExit(process)
            }
        }
    }
}
