import Foundation
import PushbuttonAPNs

/// `send`'s results as they come: counted, written as result lines (NDJSON in bulk) and shown on the
/// progress line. A bulk send hands results over on the transport's threads (one per connection), so the
/// state is behind a lock; each result line goes into one reusable buffer, written out in blocks.
final class SendResults: @unchecked Sendable {
    // `@unchecked Sendable`: every `var` is reached under `lock` only, so no two accesses overlap and the
    // runtime's exclusivity checks are skipped (`@exclusivity(unchecked)`): they were a tenth of a result's cost.
    private let lock = NSLock()
    private let input: SendInput
    private let bulk: Bool
    private let started: ContinuousClock.Instant
    private let invalid: @Sendable () -> Int
    @exclusivity(unchecked) private var summary = SendSummary()
    @exclusivity(unchecked) private var progress: SendProgress
    @exclusivity(unchecked) private var output: BufferedOutput
    @exclusivity(unchecked) private var resultLine = SendResultLine()

    init(
        input: SendInput, bulk: Bool, progress: SendProgress, console: Console, started: ContinuousClock.Instant,
        invalid: @escaping @Sendable () -> Int
    ) {
        self.input = input
        self.bulk = bulk
        self.progress = progress
        self.started = started
        self.invalid = invalid
        output = BufferedOutput(console: console)
    }

    func record(_ notification: APNsNotification, _ result: APNsResult) {
        let origin = input.take(notification)
        lock.lock()
        defer { lock.unlock() }
        summary.add(result)
        if bulk {
            resultLine.write(notification, result, line: origin?.line, id: origin?.id, to: &output)
        } else {
            output.line(Array("\(notification.deviceToken): \(result)".utf8))
        }
        // Off a terminal there is no progress line: no clock read per result.
        if progress.line.enabled {
            progress.update(summary, invalid: invalid, elapsed: ContinuousClock.now - started)
        }
    }

    /// Writes what is buffered; returns the counts (before the invalid lines are added).
    func flush() -> SendSummary {
        lock.withLock {
            output.flush()
            return summary
        }
    }

    /// The last progress line, drawn with the final counts, then left.
    func finishProgress() {
        lock.withLock {
            progress.update(summary, invalid: invalid, elapsed: ContinuousClock.now - started, force: true)
            progress.finish()
        }
    }
}
