import Foundation

/// The local backend of `scripts/tap-receiver.py`, started for one test and stopped by it (or by itself).
final class TapReceiver {
    let server: LocalServer
    let log: URL

    init(failRate: Double = 0, ackLossRate: Double = 0, maxDelayMilliseconds: Double = 0, seed: Int = 1) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("pb-receiver-\(UUID().uuidString).ndjson")
        server = try LocalServer(
            script: "tap-receiver.py",
            arguments: [
                "--log", log.path, "--fail-rate", "\(failRate)", "--ack-loss-rate", "\(ackLossRate)", "--max-delay-ms",
                "\(maxDelayMilliseconds)", "--seed", "\(seed)", "--max-seconds", "300",
            ])
    }

    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// The idempotency keys of every request the receiver processed, in order (repeats included).
    func keys() throws -> [String] { try LocalServer.values("key", inLog: log) }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: log)
    }
}
