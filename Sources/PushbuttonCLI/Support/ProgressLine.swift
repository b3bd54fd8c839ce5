import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A progress line redrawn in place on standard error, at most about ten times a second, and only when
/// standard error is a terminal (a log file or a pipe gets the final summary alone).
struct ProgressLine: Sendable {
    /// The shortest time between two redraws.
    static let interval: Duration = .milliseconds(100)

    let enabled: Bool
    private let write: @Sendable (String) -> Void
    private var lastDrawn: Duration?
    /// How many times the line was drawn (for tests and the final newline).
    private(set) var redraws = 0

    init(
        enabled: Bool = isatty(STDERR_FILENO) == 1,
        write: @escaping @Sendable (String) -> Void = ProgressLine.standardError
    ) {
        self.enabled = enabled
        self.write = write
    }

    /// Redraws the line if the last redraw is at least ``interval`` old (or `force`); `text` is built only then.
    mutating func draw(elapsed: Duration, force: Bool = false, _ text: () -> String) {
        guard enabled else { return }
        if !force, let lastDrawn, elapsed - lastDrawn < Self.interval { return }
        lastDrawn = elapsed
        redraws += 1
        // Back to the start of the line, the text, then erase whatever a longer earlier line left.
        write("\r" + text() + "\u{1B}[K")
    }

    /// Ends the line, so the summary starts on a fresh one.
    func finish() {
        if enabled && redraws > 0 { write("\n") }
    }

    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `ETA 1 min 5 s` from a rate and what is left, or `nil` when there is no rate yet (nothing done, or
    /// less than a second measured: the first results alone would promise hours).
    static func eta(remaining: Double, rate: Double, elapsed: Duration) -> String? {
        guard rate > 0, elapsed >= .seconds(1), remaining.isFinite, remaining >= 0 else { return nil }
        let seconds = Int((remaining / rate).rounded(.up))
        if seconds < 60 { return "ETA \(seconds) s" }
        if seconds < 3600 { return "ETA \(seconds / 60) min \(seconds % 60) s" }
        return "ETA \(seconds / 3600) h \(seconds / 60 % 60) min"
    }
}
