import Pushbutton

/// Numbered lines of what happened.
struct SimulationStory {
    let console: Console
    private var step = 0

    init(console: Console) { self.console = console }

    // Lines quote identifiers and texts from the payload: their control characters are shown escaped.
    mutating func say(_ line: String) {
        step += 1
        console.print("\(step). \(TerminalText.escaped(line))")
    }

    func detail(_ line: String) { console.print("     \(TerminalText.escaped(line))") }
}
