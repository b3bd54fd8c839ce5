import Foundation
import Pushbutton

/// `pushbutton builtins`: lists Pushbutton's built-in categories and their buttons, or its built-in actions.
struct BuiltinsCommand: Command {
    let name = "builtins"
    let summary = "List the built-in categories and their buttons, or the built-in actions."
    let discussion = """
        Each button shows its title, whether it opens the app (foreground) or runs in the background,
        and its other options. Use a category by listing its identifier in a manifest's "builtins".
        Titles come in every language iOS offers as a system language (--locales lists them); any other
        locale falls back as a device does (es-AR to es-419, zh-MO to zh-HK, en-NZ to en-GB, else English).
        --actions lists the built-in actions a payload's buttons can run instead: their arguments, and
        whether they need the app in the foreground (a foreground button or a body tap).
        """
    static let locale = Option<String>(
        "--locale", value: "LOCALE", help: "Show titles in this locale (fr, pt-PT, es-MX, zh-Hant, ar, …).")
    static let json = Flag(
        "--json", help: "Print the categories in the manifest's JSON format, every title in every locale.")
    static let locales = Flag("--locales", help: "List the locales the built-in titles are given in.")
    static let actions = Flag(
        "--actions", help: "List the built-in actions and their arguments (with --json, as JSON).")
    static let noBackgroundAuthentication = Flag(
        "--no-background-authentication",
        help: "Show background buttons without the unlock requirement (the app-wide option off).")
    let arguments = ArgumentSpec(
        options: [Self.locale], flags: [Self.json, Self.locales, Self.actions, Self.noBackgroundAuthentication])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments[Self.locales] {
            listLocales(console: console)
            return ExitStatus.success
        }
        if arguments[Self.actions] {
            if arguments[Self.json] {
                console.write(JSONWriter.pretty(.array(BuiltinAction.all.map(Self.json))))
            } else {
                listActions(console: console)
            }
            return ExitStatus.success
        }
        let categories = BuiltinCategories.all(
            backgroundActionsRequireAuthentication: !arguments[Self.noBackgroundAuthentication])
        if arguments[Self.json] {
            console.write(JSONWriter.pretty(.array(categories.map(\.manifestJSON))))
            return ExitStatus.success
        }
        let locale = try arguments[Self.locale]
        if let locale, LocaleIdentifier(locale) == nil {
            throw UsageError("--locale '\(locale)' is not a language identifier; use one such as fr, pt-BR or zh-Hant")
        }
        let width = categories.map(\.identifier.count).max() ?? 0
        for category in categories {
            let buttons = category.actions.map { describe($0, locale: locale) }.joined(separator: " · ")
            console.print(
                category.identifier + String(repeating: " ", count: width - category.identifier.count + 2) + buttons)
        }
        console.print("\n\(categories.count) built-in categories.")
        if let locale, let identifier = LocaleIdentifier(locale) {
            let nearest = ([locale] + identifier.fallbacks).first(where: BuiltinCategories.locales.contains)
            if let nearest, nearest != locale {
                console.print("Titles in \(nearest), the built-in locale a device set to \(locale) uses.")
            } else if nearest == nil {
                console.print(
                    "note: no built-in titles in '\(identifier)': a device shows English (see --locales for the list)")
            }
        }
        return ExitStatus.success
    }

    private func describe(_ action: Action, locale: String?) -> String {
        var traits = [action.options.contains(.foreground) ? "foreground" : "background"]
        if action.options.contains(.destructive) { traits.append("destructive") }
        if action.options.contains(.authenticationRequired) { traits.append("unlock") }
        if action.textInput != nil { traits.append("text input") }
        return "\(action.title.resolved(for: locale)) (\(traits.joined(separator: ", ")))"
    }

    /// Each action: its name, where it runs and what it does, then one line per argument.
    private func listActions(console: Console) {
        for action in BuiltinAction.all {
            let runs = action.needsForeground ? "foreground only" : "anywhere"
            console.print("\(action.name)  (\(runs))  \(action.summary)")
            let width = action.arguments.map(\.name.count).max() ?? 0
            for argument in action.arguments {
                let padding = String(repeating: " ", count: width - argument.name.count + 2)
                let required = argument.isRequired ? ", required" : ""
                console.print("    \(argument.name)\(padding)\(argument.type)\(required): \(argument.summary)")
            }
            for names in action.oneOf {
                console.print("    (at least one of \(names.joined(separator: ", ")))")
            }
        }
        console.print(
            "\n\(BuiltinAction.all.count) built-in actions. Any other action name is one the app registers.")
    }

    static func json(_ action: BuiltinAction) -> JSONValue {
        .object([
            "name": .string(action.name), "summary": .string(action.summary),
            "foregroundOnly": .bool(action.needsForeground),
            "arguments": .array(
                action.arguments.map {
                    .object([
                        "name": .string($0.name), "type": .string($0.type), "required": .bool($0.isRequired),
                        "summary": .string($0.summary),
                    ])
                }),
            "oneOf": .array(action.oneOf.map { .array($0.map(JSONValue.string)) }),
        ])
    }

    /// One line per locale: its identifier, its English name, and its direction when right to left.
    private func listLocales(console: Console) {
        let english = Locale(identifier: "en")
        let width = BuiltinCategories.locales.map(\.count).max() ?? 0
        for locale in BuiltinCategories.locales {
            var line = locale + String(repeating: " ", count: width - locale.count + 2)
            line += english.localizedString(forIdentifier: locale) ?? locale
            if LocaleIdentifier(locale)?.isRightToLeft == true { line += " · right to left" }
            console.print(line)
        }
        console.print("\n\(BuiltinCategories.locales.count) locales.")
    }
}
