import Foundation
import PushbuttonAPNs
import PushbuttonSupport
import PushbuttonTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/apns-test-server.py`, started for one test and killed by it (or stopping by itself).
final class APNsTestServer {
    private let server: LocalServerProcess
    var process: ChildProcess { server.process }
    var port: Int { server.port }
    let log: URL

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The CA file a client must trust (TLS), or `nil` for h2c.
    let caFile: String?
    private let directory: URL

    init(goawayAfter: Int = 0, tls: Bool = true) throws {
        directory = try TemporaryDirectory(prefix: "pb-apns").url
        log = directory.appendingPathComponent("requests.ndjson")
        caFile = tls ? directory.appendingPathComponent("ca.pem").path : nil
        server = try LocalServerProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", Self.packageRoot.appendingPathComponent("scripts/apns-test-server.py").path, "--log",
                log.path, "--goaway-after", "\(goawayAfter)", "--max-seconds", "60",
            ] + (tls ? ["--tls-dir", directory.path] : []))
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
        server.stop(signal: SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}
