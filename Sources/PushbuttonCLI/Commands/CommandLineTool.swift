import Pushbutton

/// The `pushbutton` command: picks the subcommand, parses its arguments and maps errors to exit statuses.
package struct CommandLineTool: Sendable {
    package static let version = "0.1.0"

    package let commands: [any Command]

    package init(commands: [any Command] = CommandLineTool.allCommands) {
        self.commands = commands
    }

    /// Every subcommand, in the order `--help` lists them.
    package static let allCommands: [any Command] = [
        LintCommand(), PayloadCommand(), PreviewCommand(), SimulateCommand(), SendCommand(), MockAPNsCommand(),
        DemoCommand(),
        OutboxCommand(),
        ChannelsCommand(),
        StatsCommand(),
        BuiltinsCommand(),
        CodegenCommand(),
        ServeCommand(),
    ]

    /// Runs with `arguments` (without the program name) and returns the exit status.
    package func run(_ arguments: [String], console: Console = .standard) async -> Int32 {
        guard let first = arguments.first else {
            console.printError(overview)
            return ExitStatus.usage
        }
        switch first {
        case "-h", "--help":
            console.print(overview)
            return ExitStatus.success
        case "--version":
            console.print("pushbutton \(Self.version)")
            return ExitStatus.success
        case "help":
            guard arguments.count > 1 else {
                console.print(overview)
                return ExitStatus.success
            }
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return fail(.usage, "unknown command '\(arguments[1])'\(suggestion(for: arguments[1]))", console)
            }
            console.write(command.help)
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            return fail(
                .usage, "unknown command '\(first)'\(suggestion(for: first)); run 'pushbutton --help'", console)
        }
        do {
            guard let parsed = try ArgumentParser.parse(Array(arguments.dropFirst()), spec: command.arguments) else {
                console.write(command.help)
                return ExitStatus.success
            }
            return try await command.run(parsed, console: console)
        } catch let error as UsageError {
            return fail(.usage, "\(error.message) (see 'pushbutton \(command.name) --help')", console)
        } catch let error as CommandFailure {
            return fail(.failure, error.message, console)
        } catch {
            return fail(.failure, "\(error)", console)
        }
    }

    private enum Kind {
        case usage
        case failure
    }

    private func fail(_ kind: Kind, _ message: String, _ console: Console) -> Int32 {
        console.printError("pushbutton: error: \(message)")
        return kind == .usage ? ExitStatus.usage : ExitStatus.failure
    }

    private func suggestion(for word: String) -> String {
        Suggestion.didYouMean(word, among: commands.map(\.name)).map { "; \($0)" } ?? ""
    }

    /// The command list.
    package var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        var text = """
            pushbutton \(Self.version): interactive push notifications, end to end.

            USAGE: pushbutton <command> [options] [arguments]

            COMMANDS:

            """
        for command in commands {
            text += "  \(command.name)" + String(repeating: " ", count: width - command.name.count + 2)
            text += command.summary + "\n"
        }
        text += "\nRun 'pushbutton <command> --help' for a command's options."
        return text
    }
}
