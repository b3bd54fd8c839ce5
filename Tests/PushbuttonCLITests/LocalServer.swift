import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A local test server from `scripts/`: started with its arguments, its port read from the first line of its
/// output, killed when the test is done (SIGKILL, because a child started by `Process` may inherit a mask
/// that blocks SIGTERM). Each script also stops itself after a while.
final class LocalServer {
    let process = Process()
    let port: Int

    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", CLI.packageRoot.appendingPathComponent("scripts/\(script)").path] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The `key` of every JSON line of a server's log file, in order.
    static func values(_ key: String, inLog log: URL) throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?[key] as? String
        }
    }
}
