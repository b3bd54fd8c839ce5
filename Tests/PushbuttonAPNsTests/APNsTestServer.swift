import Foundation
import PushbuttonAPNs
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/apns-test-server.py`, started for one test and killed by it (or stopping by itself).
final class APNsTestServer {
    let process = Process()
    let port: Int
    let log: URL

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The CA file a client must trust (TLS), or `nil` for h2c.
    let caFile: String?
    private let directory: URL

    init(goawayAfter: Int = 0, tls: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        log = directory.appendingPathComponent("requests.ndjson")
        caFile = tls ? directory.appendingPathComponent("ca.pem").path : nil
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                "python3", Self.packageRoot.appendingPathComponent("scripts/apns-test-server.py").path, "--log",
                log.path,
                "--goaway-after", "\(goawayAfter)", "--max-seconds", "60",
            ] + (tls ? ["--tls-dir", directory.path] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    /// What the server received: one dictionary per request.
    /// Where a client connects: TLS with the private CA, or h2c.
    var environment: PushbuttonAPNs.APNsEnvironment {
        APNsEnvironment(host: "127.0.0.1", port: port, caFile: caFile, cleartext: caFile == nil)
    }

    func requests() throws -> [[String: String]] {
        guard FileManager.default.fileExists(atPath: log.path) else { return [] }
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?.compactMapValues {
                $0 as? String
            }
        }
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        ProcessExit.wait(for: process)
        try? FileManager.default.removeItem(at: directory)
    }
}
