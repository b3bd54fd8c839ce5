import Foundation
import PushbuttonOutbox
import PushbuttonSupport

/// `outbox drain`'s progress line, like `send`'s: delivered and failed attempts so far against what was
/// waiting when the drain began, with the percentage, the rate and the time left. It is redrawn as
/// requests finish and every tenth of a second while the drain waits for a retry.
final class DrainProgress: Sendable {
    private struct State: Sendable {
        var line: ProgressLine
        var delivered = 0
        var failedAttempts = 0
    }

    /// Entries waiting (pending or in flight) when the drain began.
    let total: Int
    private let started = ContinuousClock.now
    private let state: Locked<State>

    init(total: Int, line: ProgressLine = ProgressLine()) {
        self.total = total
        state = Locked(State(line: line))
    }

    var enabled: Bool { state.withLock { $0.line.enabled } }

    /// Counts one finished request (a 2xx answer is a delivery; anything else, or no answer, a failed attempt).
    func record(delivered: Bool) {
        state.withLock { state in
            if delivered { state.delivered += 1 } else { state.failedAttempts += 1 }
        }
        redraw()
    }

    func redraw(force: Bool = false) {
        let elapsed = ContinuousClock.now - started
        let total = total
        state.withLock { state in
            let delivered = state.delivered
            let failed = state.failedAttempts
            state.line.draw(elapsed: elapsed, force: force) {
                Self.text(delivered: delivered, failedAttempts: failed, total: total, elapsed: elapsed)
            }
        }
    }

    func finish() {
        redraw(force: true)
        state.withLock { $0.line.finish() }
    }

    static func text(delivered: Int, failedAttempts: Int, total: Int, elapsed: Duration) -> String {
        let seconds = max(elapsed / .seconds(1), 0.001)
        let rate = Double(delivered) / seconds
        var text = "\(SendSummary.grouped(delivered)) of \(SendSummary.grouped(total)) delivered"
        if total > 0 { text += String(format: " (%.1f%%)", min(100, Double(delivered) * 100 / Double(total))) }
        text += ", \(SendSummary.grouped(failedAttempts)) failed attempt\(failedAttempts == 1 ? "" : "s")"
        text += String(format: "; %.0f/s", rate)
        if let eta = ProgressLine.eta(remaining: Double(max(total - delivered, 0)), rate: rate, elapsed: elapsed) {
            text += ", " + eta
        }
        return text
    }

    /// A sender that reports each finished request to `progress`.
    struct Sender: OutboxSender {
        let base: any OutboxSender
        let progress: DrainProgress

        func send(_ request: OutgoingRequest) async throws -> Int {
            do {
                let status = try await base.send(request)
                progress.record(delivered: (200..<300).contains(status))
                return status
            } catch {
                progress.record(delivered: false)
                throw error
            }
        }
    }
}
