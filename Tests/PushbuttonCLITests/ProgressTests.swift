import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonSupport
import Synchronization
import Testing

@testable import PushbuttonCLI

/// Progress lines: at most about ten redraws a second, the counts so far, and a percentage and ETA when
/// the total is known or can be estimated.
@Suite(.timeLimit(.minutes(2))) struct ProgressTests {
    @Test func redrawsAtMostTenTimesASecond() {
        let written = Locked<[String]>([])
        var line = ProgressLine(enabled: true) { text in written.withLock { $0.append(text) } }
        // 300,000 updates over 3 simulated seconds (10 µs apart).
        for number in 1...300_000 { line.draw(elapsed: .microseconds(number * 10)) { "\(number)" } }
        line.draw(elapsed: .seconds(3), force: true) { "done" }
        line.finish()
        let lines = written.withLock { $0 }
        #expect(lines.count >= 30 && lines.count <= 32, "\(lines.count) redraws")
        #expect(lines.first == "\r1\u{1B}[K" && lines.suffix(2) == ["\rdone\u{1B}[K", "\n"])
        var silent = ProgressLine(enabled: false) { _ in Issue.record("drawn when disabled") }
        silent.draw(elapsed: .seconds(1)) { "x" }
    }

    @Test func sendShowsCountsPercentageAndETA() {
        var summary = SendSummary()
        summary.delivered = 1_200
        summary.rejected = ["Unregistered": 30]
        summary.failed = 2
        #expect(
            SendProgress.text(summary, elapsed: .seconds(2), total: (300_000, false))
                == "1,232 of ~300,000 (0.4%): 1,200 delivered, 30 rejected, 2 failed; 616/s, ETA 8 min 6 s")
        #expect(
            SendProgress.text(summary, elapsed: .seconds(2), total: nil)
                == "1,232: 1,200 delivered, 30 rejected, 2 failed; 616/s")
        // No ETA from the first instants, when a handful of results would promise hours.
        #expect(
            SendProgress.text(summary, elapsed: .milliseconds(500), total: (300_000, false))
                == "1,232 of ~300,000 (0.4%): 1,200 delivered, 30 rejected, 2 failed; 2464/s")
    }

    @Test func aTokenFilesTotalIsEstimatedFromItsSize() {
        let input = SendInput(size: 65_000)
        #expect(input.estimatedTotal == nil)
        input.read.store(100, ordering: .relaxed)
        input.bytesRead.store(6_500, ordering: .relaxed)
        #expect(input.estimatedTotal?.count == 1_000 && input.estimatedTotal?.exact == false)
        input.finished.store(true, ordering: .releasing)
        #expect(input.estimatedTotal?.count == 100 && input.estimatedTotal?.exact == true)
    }

    @Test func drainShowsDeliveredAgainstWhatWasWaiting() {
        #expect(
            DrainProgress.text(delivered: 250, failedAttempts: 1, total: 1_000, elapsed: .seconds(5))
                == "250 of 1,000 delivered (25.0%), 1 failed attempt; 50/s, ETA 15 s")
    }

    /// The binary on a terminal: 3,000 notifications to the mock redraw a handful of times, not 30.
    @Test func sendOnATerminal() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mock = try LocalServer(mockAPNs: ["--self-signed", directory.path, "--quiet", "--duration", "300"])
        defer { mock.stop() }
        let tokens = (1...3_000).map { String(format: "%064x", $0) }.joined(separator: "\n")
        try Data(tokens.utf8).write(to: directory.appendingPathComponent("tokens.txt"))
        let started = ContinuousClock.now
        let port = mock.port
        let result = try await Terminal.run(
            "exec pushbutton send --key \(directory.path)/AuthKey_MOCKKEY001.p8 --key-id MOCKKEY001 --team-id MOCKTEAM01 "
                + "--topic com.example.chatter --host 127.0.0.1 --port \(port) --ca \(directory.path)/ca.pem "
                + "--tokens \(directory.path)/tokens.txt --body Hi >/dev/null")
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        #expect(result.status == 0, "\(result.stdout)")
        let redraws = Terminal.redraws(result.stdout)
        // At most one redraw per tenth of a second, plus the final one (and the summary after it).
        #expect(redraws.count <= Int(seconds * 10) + 3, "\(redraws.count) redraws in \(seconds) s")
        #expect(
            redraws.last?.hasPrefix(
                "3,000 of 3,000 (100.0%): 3,000 delivered, 0 rejected, 0 failed; ") == true, "\(redraws)")
        #expect(result.stdout.contains("\nsent 3000: delivered 3000, rejected 0, failed 0 in "))
    }

    /// `outbox drain --until-empty` on a terminal shows how far it got.
    @Test func drainOnATerminal() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("taps.sqlite").path
        let outbox = try Outbox(path: path)
        for number in 1...40 { try await outbox.enqueue(OutboxCommandTests.request("k\(number)")) }
        let receiver = try TapReceiver()
        defer { receiver.stop() }
        let endpoint = receiver.endpoint
        let result = try await Terminal.run("exec pushbutton outbox drain \(path) --until-empty --endpoint \(endpoint)")
        #expect(result.status == 0, "\(result.stdout)")
        let redraws = Terminal.redraws(result.stdout)
        #expect(
            redraws.last?.hasPrefix("40 of 40 delivered (100.0%), 0 failed attempts; ") == true, "\(redraws)")
        #expect(result.stdout.contains("attempted 40, delivered 40, retried 0, dead-lettered 0"))
    }
}
