import Foundation
import Pushbutton
import PushbuttonOutbox

/// `pushbutton stats DB`: the tap summary, per category and button.
struct StatsCommand: Command {
    let name = "stats"
    let summary = "Summarise the tap log: responses per category and button, shares and rates."
    static let json = Flag("--json", help: "Print JSON.")
    let arguments = ArgumentSpec(flags: [Self.json], positionals: ["DB"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let path = arguments.positionals[0]
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("no outbox database at '\(path)'")
        }
        let summary: TapSummary
        do {
            summary = try await Outbox(path: path).tapSummary()
        } catch {
            throw CommandFailure("cannot read the tap log: \(error)")
        }
        if arguments[Self.json] {
            console.write(JSONWriter.pretty(json(summary)))
            return ExitStatus.success
        }
        let lines = TapSummaryText.lines(summary).map(TerminalText.escaped)  // names come from payloads
        console.print(lines[0])
        // A blank line before each category, as before.
        for line in lines.dropFirst() { console.print(line.hasPrefix("  ") ? line : "\n" + line) }
        return ExitStatus.success
    }

    private func json(_ summary: TapSummary) -> JSONValue {
        .object([
            "total_responses": .integer(Int64(summary.totalResponses)),
            "total_delivered": .integer(Int64(summary.totalDelivered)),
            "categories": .array(
                summary.categories.map { category in
                    .object([
                        "category": .string(category.category), "delivered": .integer(Int64(category.delivered)),
                        "responses": .integer(Int64(category.responses)),
                        "actions": .array(
                            category.actions.map { action in
                                .object([
                                    "action": .string(action.action), "count": .integer(Int64(action.count)),
                                    "share_of_responses": .double(action.shareOfResponses),
                                    "rate": action.rate.map(JSONValue.double) ?? .null,
                                    "median_latency_seconds": action.medianLatency.map(JSONValue.double) ?? .null,
                                ])
                            }),
                    ])
                }),
        ])
    }
}
