/// One `pushbutton` subcommand.
package protocol Command: Sendable {
    /// The word that selects it: `lint`.
    var name: String { get }
    /// One line for the command list.
    var summary: String { get }
    /// More text for `--help`, after the usage line and before the options.
    var discussion: String { get }
    var arguments: ArgumentSpec { get }
    /// Runs the command and returns its exit status. Throw ``UsageError`` (status 2) or
    /// ``CommandFailure`` (status 1) to stop with a one-line reason on standard error.
    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32
}

extension Command {
    package var discussion: String { "" }

    /// The `--help` text.
    package var help: String {
        var positionals = arguments.positionalNames.joined(separator: " ")
        if arguments.maximumPositionals == nil {
            // "[PAYLOAD]" becomes "[PAYLOAD...]": the ellipsis goes inside an optional name's brackets.
            if positionals.hasSuffix("]") {
                positionals.insert(contentsOf: "...", at: positionals.index(before: positionals.endIndex))
            } else {
                positionals += "..."
            }
        }
        var text = "USAGE: pushbutton \(name)"
        if !arguments.options.isEmpty || !arguments.flags.isEmpty { text += " [options]" }
        if !positionals.isEmpty { text += " \(positionals)" }
        text += "\n\n\(summary)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let rows =
            arguments.options.map { option in
                (
                    ([option.short].compactMap { $0 } + [option.name]).joined(separator: ", ") + " \(option.valueName)",
                    option.help + (option.repeatable ? " (repeatable)" : "")
                )
            }
            + arguments.flags.map { flag in
                (([flag.short].compactMap { $0 } + [flag.name]).joined(separator: ", "), flag.help)
            } + [("-h, --help", "Show this help.")]
        let width = rows.map(\.0.count).max() ?? 0
        text += "\nOPTIONS:\n"
        for (left, right) in rows {
            text += "  " + left + String(repeating: " ", count: width - left.count + 2) + right + "\n"
        }
        return text
    }
}
