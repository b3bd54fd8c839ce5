import Foundation
import Testing

/// The README's ten-minute tour, run exactly as written: every `$ ` line of its console blocks, in order,
/// with `# exits N` giving the expected status (0 otherwise) and a trailing `&` starting a server that
/// runs until the tour ends. Output lines without digits (ids, timings and ports vary) must appear in
/// what the command printed.
@Suite struct ReadmeTourTests {
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
            } else if !steps.isEmpty, line != "…", line.rangeOfCharacter(from: .decimalDigits) == nil,
                !line.trimmingCharacters(in: .whitespaces).isEmpty
            {
                steps[steps.count - 1].expectedLines.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return steps
    }

    @Test func theTourRunsAsWritten() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 9)
        #expect(steps.contains { $0.command.hasPrefix("pushbutton send") } && steps.contains(where: \.background))
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("Examples"),
            withDestinationURL: CLI.packageRoot.appendingPathComponent("Examples"))
        var servers: [LocalServer] = []
        defer { servers.forEach { $0.stop() } }
        for step in steps {
            if step.background {
                servers.append(try Self.startBackground(step.command, in: directory))
                continue
            }
            let result = try Self.shell(step.command, in: directory)
            #expect(result.status == step.expectedStatus, "\(step.command)\n\(result.stderr)")
            let output = result.stdout + result.stderr
            for line in step.expectedLines {
                #expect(output.contains(line), "'\(line)' missing from the output of: \(step.command)")
            }
        }
    }

    private static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CLI.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    private static func shell(_ command: String, in directory: URL) throws -> CLI.Result {
        try CLI.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], in: directory, environment: environment)
    }

    /// Starts a server and waits for its first line, the mock's "listening" line (its port).
    private static func startBackground(_ command: String, in directory: URL) throws -> LocalServer {
        try LocalServer(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec " + command], in: directory,
            environment: environment,
            port: { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["port"] as? Int
            })
    }
}
