import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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
        var servers: [Process] = []
        defer {
            for server in servers {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
            }
        }
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        process.environment = environment
        let out = directory.appendingPathComponent(".out")
        let err = directory.appendingPathComponent(".err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return CLI.Result(
            status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
            stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// Starts a server and waits for its first line (the mock's "listening" line).
    private static func startBackground(_ command: String, in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec " + command]
        process.currentDirectoryURL = directory
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        #expect(String(decoding: line, as: UTF8.self).contains(#""event":"listening""#), "\(command)")
        return process
    }
}
