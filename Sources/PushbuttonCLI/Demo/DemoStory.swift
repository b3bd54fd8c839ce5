import Foundation

/// The demo's output: numbered steps with their timings, what happened, and a check mark for each
/// expectation. The demo fails when any check fails.
final class DemoStory {
    private let console: Console
    private var number = 0
    private var started = ContinuousClock.now
    private var open = false
    private(set) var failures: [String] = []
    private(set) var checks = 0

    init(console: Console) { self.console = console }

    func step(_ title: String) {
        finishStep()
        number += 1
        console.print("\n\(number). \(title)")
        started = .now
        open = true
    }

    func say(_ line: String) { console.print("   " + line) }

    /// Records an expectation; prints ✓ or ✗.
    @discardableResult
    func check(_ condition: Bool, _ expectation: String) -> Bool {
        checks += 1
        console.print("   \(condition ? "✓" : "✗") \(expectation)")
        if !condition { failures.append("step \(number): \(expectation)") }
        return condition
    }

    func finishStep() {
        guard open else { return }
        open = false
        console.print("   (\((ContinuousClock.now - started).millisecondsText) ms)")
    }
}
