import Foundation

/// `send`'s progress line: what was sent so far (delivered, rejected, failed), the rate, and, when the
/// total is known or can be estimated from a token file's size, the percentage and the time left.
struct SendProgress {
    let input: SendInput
    /// The total when the command line gave it (--token values).
    let knownTotal: Int?
    var line: ProgressLine

    init(input: SendInput, knownTotal: Int?, line: ProgressLine = ProgressLine()) {
        self.input = input
        self.knownTotal = knownTotal
        self.line = line
    }

    /// Redraws (at most about ten times a second); `invalid` is read only then.
    mutating func update(_ summary: SendSummary, invalid: () -> Int, elapsed: Duration, force: Bool = false) {
        let input = input
        let knownTotal = knownTotal
        line.draw(elapsed: elapsed, force: force) {
            var summary = summary
            summary.invalid = invalid()
            return Self.text(
                summary, elapsed: elapsed, total: knownTotal.map { (count: $0, exact: true) } ?? input.estimatedTotal)
        }
    }

    func text(_ summary: SendSummary, elapsed: Duration) -> String {
        Self.text(summary, elapsed: elapsed, total: knownTotal.map { (count: $0, exact: true) } ?? input.estimatedTotal)
    }

    static func text(_ summary: SendSummary, elapsed: Duration, total: (count: Int, exact: Bool)?) -> String {
        let done = summary.total + summary.invalid
        let seconds = max(elapsed / .seconds(1), 0.001)
        let rate = Double(summary.total) / seconds
        var text = "\(SendSummary.grouped(done))"
        if let total, total.count > 0 {
            let percent = min(100, Double(done) * 100 / Double(total.count))
            text +=
                " of \(total.exact ? "" : "~")\(SendSummary.grouped(total.count))"
                + String(format: " (%.1f%%)", percent)
        }
        text += ": \(summary.counts); " + String(format: "%.0f/s", rate)
        if let total,
            let eta = ProgressLine.eta(
                remaining: Double(total.count - done), rate: Double(done) / seconds, elapsed: elapsed)
        {
            text += ", " + eta
        }
        return text
    }

    func finish() { line.finish() }
}
