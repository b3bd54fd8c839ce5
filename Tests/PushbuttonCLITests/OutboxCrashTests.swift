import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The outbox's promise, tested the hard way: a delivering process killed with SIGKILL at random points,
/// restarted, against a backend that fails, delays and loses acknowledgements at random.
@Suite(.serialized, .timeLimit(.minutes(10))) struct OutboxCrashTests {
    static let taps = 200
    static let kills = 6

    @Test func noCommittedTapIsLostWhenTheDeliveringProcessIsKilled() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("outbox.sqlite").path
        let receiver = try TapReceiver(failRate: 0.2, ackLossRate: 0.1, maxDelayMilliseconds: 15, seed: 7)
        defer { receiver.stop() }
        let outbox = try Outbox(path: database)
        var random = SplitMix64(seed: 2026)

        // Half the taps are written before any worker runs, half while workers run and die.
        try await write(Self.taps / 2, startingAt: 0, into: outbox)
        var killed = 0
        for round in 0..<Self.kills {
            let worker = try startDrain(database, endpoint: receiver.endpoint)
            if round == 1 { try await write(Self.taps / 2, startingAt: Self.taps / 2, into: outbox) }
            // Another process: SIGKILL at a random moment of its drain is the point, so the pause is random by design.
            try await Task.sleep(for: .milliseconds(Int64(40 + random.next() % 250)))
            if worker.isRunning {
                kill(worker.processIdentifier, SIGKILL)
                killed += 1
            }
            CLI.waitForExit(worker)
        }
        let last = try startDrain(database, endpoint: receiver.endpoint)
        #expect(try await CLI.exit(of: last).status == 0)

        let status = try await outbox.status()
        #expect(status.delivered == Self.taps && status.pending == 0 && status.inFlight == 0 && status.dead == 0)
        let keys = try receiver.keys()
        let unique = Set(keys)
        #expect(unique == Set((0..<Self.taps).map { "tap-\($0)" }), "every tap reached the backend at least once")
        #expect(keys.count >= unique.count)
        print(
            "outbox crash test: \(Self.taps) taps, \(killed) SIGKILLs, \(keys.count) requests processed, "
                + "\(keys.count - unique.count) duplicates removed by idempotency key, \(unique.count) unique")
    }

    /// Writes taps from 8 concurrent tasks, as several handlers would.
    private func write(_ count: Int, startingAt start: Int, into outbox: Outbox) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for index in stride(from: start + lane, to: start + count, by: 8) {
                        try await outbox.enqueue(
                            BackendRequest(
                                url: "https://api.example.com/taps/\(index)", body: ["tap": .integer(Int64(index))],
                                idempotencyKey: "tap-\(index)", notificationIdentifier: "n\(index)",
                                actionIdentifier: "like"))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func startDrain(_ database: String, endpoint: String) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        process.arguments = [
            "outbox", "drain", database, "--endpoint", endpoint, "--until-empty", "--base-backoff", "0.01",
            "--max-backoff", "0.5",
            "--time-limit", "60", "--request-timeout", "5",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}
