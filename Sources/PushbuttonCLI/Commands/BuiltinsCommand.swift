import Pushbutton

/// `pushbutton builtins`: lists Pushbutton's built-in categories and their buttons.
struct BuiltinsCommand: Command {
    let name = "builtins"
    let summary = "List the built-in categories and their buttons."
    let discussion = """
        Each button shows its title, whether it opens the app (foreground) or runs in the background,
        and its other options. Use a category by listing its identifier in a manifest's "builtins".
        """
    let arguments = ArgumentSpec(
        options: [
            .init("--locale", value: "LOCALE", help: "Show titles in this locale (en, fr, de, es, ja, zh-Hans).")
        ],
        flags: [
            .init("--json", help: "Print the categories in the manifest's JSON format."),
            .init(
                "--no-background-authentication",
                help: "Show background buttons without the unlock requirement (the app-wide option off)."),
        ])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let categories = BuiltinCategories.all(
            backgroundActionsRequireAuthentication: !arguments.has("--no-background-authentication"))
        if arguments.has("--json") {
            console.write(JSONWriter.pretty(.array(categories.map(\.manifestJSON))))
            return ExitStatus.success
        }
        let locale = arguments.value("--locale")
        let width = categories.map(\.identifier.count).max() ?? 0
        for category in categories {
            let buttons = category.actions.map { describe($0, locale: locale) }.joined(separator: " · ")
            console.print(
                category.identifier + String(repeating: " ", count: width - category.identifier.count + 2) + buttons)
        }
        console.print("\n\(categories.count) built-in categories.")
        return ExitStatus.success
    }

    private func describe(_ action: Action, locale: String?) -> String {
        var traits = [action.options.contains(.foreground) ? "foreground" : "background"]
        if action.options.contains(.destructive) { traits.append("destructive") }
        if action.options.contains(.authenticationRequired) { traits.append("unlock") }
        if action.textInput != nil { traits.append("text input") }
        return "\(action.title.resolved(for: locale)) (\(traits.joined(separator: ", ")))"
    }
}
