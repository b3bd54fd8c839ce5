import Foundation
import Pushbutton

/// `pushbutton builtins`: lists Pushbutton's built-in categories and their buttons.
struct BuiltinsCommand: Command {
    let name = "builtins"
    let summary = "List the built-in categories and their buttons."
    let discussion = """
        Each button shows its title, whether it opens the app (foreground) or runs in the background,
        and its other options. Use a category by listing its identifier in a manifest's "builtins".
        Titles come in every language iOS offers as a system language (--locales lists them); any other
        locale falls back as a device does (es-AR to es-419, zh-MO to zh-HK, en-NZ to en-GB, else English).
        """
    let arguments = ArgumentSpec(
        options: [
            .init("--locale", value: "LOCALE", help: "Show titles in this locale (fr, pt-PT, es-MX, zh-Hant, ar, …).")
        ],
        flags: [
            .init("--json", help: "Print the categories in the manifest's JSON format, every title in every locale."),
            .init("--locales", help: "List the locales the built-in titles are given in."),
            .init(
                "--no-background-authentication",
                help: "Show background buttons without the unlock requirement (the app-wide option off)."),
        ])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments.has("--locales") {
            listLocales(console: console)
            return ExitStatus.success
        }
        let categories = BuiltinCategories.all(
            backgroundActionsRequireAuthentication: !arguments.has("--no-background-authentication"))
        if arguments.has("--json") {
            console.write(JSONWriter.pretty(.array(categories.map(\.manifestJSON))))
            return ExitStatus.success
        }
        let locale = arguments.value("--locale")
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
