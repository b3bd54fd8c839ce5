import Foundation
import Pushbutton
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A local test server from `scripts/`: started with its arguments, its port read from the first line of its
/// output, killed when the test is done (SIGKILL, because a child started by `Process` may inherit a mask
/// that blocks SIGTERM). Each script also stops itself after a while.
final class LocalServer {
    let process = ChildProcess()
    let port: Int
    /// The first line the server printed (its port, or `pushbutton mock-apns`'s JSON).
    let firstLine: String
    /// The rest of standard output, readable after ``stop()``.
    private let output = Pipe()

    convenience init(script: String, arguments: [String]) throws {
        try self.init(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", CLI.packageRoot.appendingPathComponent("scripts/\(script)").path] + arguments,
            port: { Int($0) })
    }

    /// `pushbutton mock-apns` with these arguments; the port comes from its "listening" line.
    convenience init(mockAPNs arguments: [String]) throws {
        try self.init(
            executable: CLI.productsDirectory.appendingPathComponent("pushbutton"),
            arguments: ["mock-apns", "--port", "0"] + arguments,
            port: { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["port"] as? Int
            })
    }

    init(
        executable: URL, arguments: [String], in directory: URL = CLI.packageRoot,
        environment: [String: String]? = nil, port: (String) -> Int?
    ) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        firstLine = String(decoding: line, as: UTF8.self)
        guard let port = port(firstLine) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// What the server printed after its first line, once it has stopped.
    func remainingOutput() -> String {
        String(decoding: DescriptorReader.readToEnd(output.fileHandleForReading), as: UTF8.self)
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        CLI.waitForExit(process)
    }

    /// The `key` of every JSON line of a server's log file, in order.
    static func values(_ key: String, inLog log: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?[key] as? String
        }
    }
}
