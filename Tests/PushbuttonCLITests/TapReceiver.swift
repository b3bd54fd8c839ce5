import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The local backend of `scripts/tap-receiver.py`, started for one test and stopped by it (or by itself).
final class TapReceiver {
    let process = Process()
    let port: Int
    let log: URL

    init(failRate: Double = 0, ackLossRate: Double = 0, maxDelayMilliseconds: Double = 0, seed: Int = 1) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("pb-receiver-\(UUID().uuidString).ndjson")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", CLI.packageRoot.appendingPathComponent("scripts/tap-receiver.py").path, "--log", log.path,
            "--fail-rate", "\(failRate)", "--ack-loss-rate", "\(ackLossRate)", "--max-delay-ms",
            "\(maxDelayMilliseconds)",
            "--seed", "\(seed)", "--max-seconds", "120",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line is the port.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The idempotency keys of every request the receiver processed, in order (repeats included).
    func keys() throws -> [String] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["key"] as? String
        }
    }

    /// Kills the receiver. SIGKILL, because a child started by `Process` may inherit a mask that blocks SIGTERM.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}
