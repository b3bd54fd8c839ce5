import Foundation

/// The semantic rules a careful reviewer applies to a manifest.
///
/// Each rule reports a ``Diagnostic`` with the JSON path of what it is about; none of them traps.
struct ManifestLinter {
    /// iOS shows at most this many actions of a category, in the expanded view.
    static let maximumShownActions = 10
    /// Banners and other views with limited room show only this many.
    static let bannerShownActions = 2
    /// Category identifiers travel in every payload; longer ones waste the 4 KB budget.
    static let identifierLengthLimit = 64
    /// Buttons wider than this are truncated on most devices.
    static let titleLengthLimit = 40

    let manifest: Manifest
    let categoryPaths: [JSONPath]
    let legacyPaths: [JSONPath]
    let builtinPaths: [JSONPath]
    private var diagnostics: [Diagnostic] = []
    /// The first definition seen of each action identifier, for the cross-category consistency rule.
    private var firstActions: [String: (action: Action, path: JSONPath)] = [:]

    init(manifest: Manifest) {
        self.init(
            manifest: manifest,
            categoryPaths: manifest.categories.indices.map { JSONPath.root.appending("categories").appending($0) },
            legacyPaths: manifest.legacyCategories.indices.map {
                JSONPath.root.appending("legacyCategories").appending($0)
            },
            builtinPaths: manifest.builtins.indices.map { JSONPath.root.appending("builtins").appending($0) })
    }

    init(manifest: Manifest, categoryPaths: [JSONPath], legacyPaths: [JSONPath], builtinPaths: [JSONPath]) {
        self.manifest = manifest
        self.categoryPaths = categoryPaths
        self.legacyPaths = legacyPaths
        self.builtinPaths = builtinPaths
    }

    consuming func run() -> [Diagnostic] {
        checkLocales()
        checkBuiltins()
        var seenCategories: [String: JSONPath] = [:]
        for (category, path) in zip(manifest.categories, categoryPaths) {
            checkCategoryIdentifier(category.identifier, at: path, seen: &seenCategories, legacy: false)
            checkCategory(category, at: path, actionsPath: path.appending("actions"))
        }
        for (legacy, path) in zip(manifest.legacyCategories, legacyPaths) {
            checkCategoryIdentifier(legacy.identifier, at: path, seen: &seenCategories, legacy: true)
            let (converted, conversion) = LegacyConversion.convert(legacy, at: path)
            diagnostics += conversion
            let list = legacy.defaultActions.isEmpty ? "minimalActions" : "defaultActions"
            checkCategory(converted, at: path, actionsPath: path.appending(list))
        }
        return diagnostics
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ path: JSONPath, _ message: String,
        hint: String? = nil
    ) {
        diagnostics.append(Diagnostic(severity, code, at: path, message, hint: hint))
    }

    // MARK: Locales and built-ins

    private mutating func checkLocales() {
        var seen = Set<String>()
        for (index, locale) in manifest.locales.enumerated() {
            let path = JSONPath.root.appending("locales").appending(index)
            if !LanguageTag.isValid(locale) {
                // An error: locales name directories in generated code (`fr.lproj`) and match devices' languages.
                report(
                    .error, .invalidLocale, path,
                    "'\(TerminalText.escaped(locale))' is not a BCP 47 language tag",
                    hint: "use tags such as en, fr, pt-BR, zh-Hans (a hyphen, not an underscore)")
            }
            if !seen.insert(locale).inserted {
                report(.warning, .duplicateKey, path, "locale '\(locale)' is listed twice", hint: "remove one")
            }
        }
        if !LanguageTag.isValid(manifest.defaultLocale) {
            report(
                .error, .invalidLocale, .root.appending("defaultLocale"),
                "the default locale '\(TerminalText.escaped(manifest.defaultLocale))' is not a BCP 47 language tag",
                hint: "use a tag such as en, fr, pt-BR, zh-Hans")
        } else if !manifest.locales.isEmpty && !manifest.locales.contains(manifest.defaultLocale) {
            report(
                .error, .defaultLocale, .root.appending("defaultLocale"),
                "the default locale '\(manifest.defaultLocale)' is not among the declared locales",
                hint: "add '\(manifest.defaultLocale)' to 'locales' or pick one of them")
        }
    }

    private mutating func checkBuiltins() {
        var seen = Set<String>()
        for (name, path) in zip(manifest.builtins, builtinPaths) {
            if !seen.insert(name).inserted {
                report(.warning, .duplicateBuiltin, path, "built-in '\(name)' is listed twice", hint: "remove one")
                continue
            }
            guard BuiltinCategories.category(name) == nil else { continue }
            let prefixed = SystemIdentifiers.reservedPrefix + name
            let hint: String
            if BuiltinCategories.identifiers.contains(prefixed) {
                hint = "built-ins are named with their prefix: write '\(prefixed)'"
            } else {
                hint =
                    Suggestion.didYouMean(name, among: BuiltinCategories.identifiers)
                    ?? "run 'pushbutton builtins' to list them"
            }
            report(.error, .unknownBuiltin, path, "'\(name)' is not a built-in category", hint: hint)
        }
    }

    // MARK: Categories

    private mutating func checkCategoryIdentifier(
        _ identifier: String, at path: JSONPath, seen: inout [String: JSONPath], legacy: Bool
    ) {
        let idPath = path.appending("identifier")
        checkIdentifier(identifier, at: idPath, kind: "category")
        guard !identifier.isEmpty else { return }
        if let first = seen[identifier] {
            let mixed = legacy != (first.components.first == .key("legacyCategories"))
            report(
                .error, mixed ? .legacyModernMixed : .duplicateCategory, idPath,
                "category '\(identifier)' is already defined at \(first)"
                    + (mixed ? " (once in the legacy model, once in the modern one)" : ""),
                hint: mixed
                    ? "keep only one definition: the modern one, or the legacy one to be converted"
                    : "give each category a unique identifier, or merge the two")
        } else {
            seen[identifier] = path
        }
    }

    private mutating func checkCategory(_ category: Category, at path: JSONPath, actionsPath: JSONPath) {
        checkActionCount(category, at: path, actionsPath: actionsPath)
        var seenActions: [String: Int] = [:]
        for (index, action) in category.actions.enumerated() {
            let actionPath = actionsPath.appending(index)
            if let first = seenActions[action.identifier], !action.identifier.isEmpty {
                report(
                    .error, .duplicateAction, actionPath.appending("identifier"),
                    "action '\(action.identifier)' appears twice in category '\(category.identifier)' "
                        + "(first at \(actionsPath.appending(first)))",
                    hint: "give each button of a category its own identifier")
                checkAction(action, at: actionPath, comparingAcrossCategories: false)
            } else {
                seenActions[action.identifier] = index
                checkAction(action, at: actionPath, comparingAcrossCategories: true)
            }
        }
        for (index, intent) in category.intentIdentifiers.enumerated() where intent.isEmpty {
            report(
                .error, .emptyIntentIdentifier, path.appending("intentIdentifiers").appending(index),
                "an intent identifier is empty", hint: "remove it or name the SiriKit intent")
        }
        if let placeholder = category.hiddenPreviewsBodyPlaceholder {
            checkText(
                placeholder, at: path.appending("hiddenPreviewsBodyPlaceholder"), allowEmpty: false, what: "placeholder"
            )
        }
        if let summary = category.summaryFormat {
            checkText(summary, at: path.appending("summaryFormat"), allowEmpty: false, what: "summary format")
            let texts = [summary.resolved(fallbackLocale: manifest.defaultLocale)] + Array(summary.translations.values)
            if texts.contains(where: { !$0.contains("%u") && !$0.contains("%@") && !$0.contains("%d") }) {
                report(
                    .warning, .summaryFormat, path.appending("summaryFormat"),
                    "the summary format has no placeholder for the count",
                    hint: "include %u, e.g. \"%u more messages\"")
            }
        }
        if category.options.contains(.allowAnnouncement) {
            report(
                .note, .deprecatedOption, path.appending("options"),
                "'allowAnnouncement' is deprecated since iOS 15: announcing is the user's choice in Settings")
        }
    }

    private mutating func checkActionCount(_ category: Category, at path: JSONPath, actionsPath: JSONPath) {
        let count = category.actions.count
        if count == 0 && !category.options.contains(.customDismissAction) {
            report(
                .warning, .noActions, actionsPath,
                "category '\(category.identifier)' has no actions, so it shows no buttons",
                hint: "add actions, or remove the category")
        }
        if count > Self.maximumShownActions {
            let hidden = category.actions[Self.maximumShownActions...].map(\.identifier).joined(separator: ", ")
            report(
                .warning, .tooManyActions, actionsPath.appending(Self.maximumShownActions),
                "iOS shows at most \(Self.maximumShownActions) actions; \(hidden) will never be shown",
                hint: "remove actions or split the category")
        }
        if count > Self.bannerShownActions {
            let first = category.actions.prefix(Self.bannerShownActions).map { "'\($0.identifier)'" }
            var message =
                "category '\(category.identifier)' has \(count) actions: banners and other compact views show only "
                + "the first \(Self.bannerShownActions) (\(first.joined(separator: " and "))); the expanded view "
                + "shows up to \(Self.maximumShownActions)"
            if count > 4 { message += "; iOS 8/9 alerts showed only 4" }
            report(.note, .actionsHiddenInBanner, actionsPath, message, hint: "put the most used buttons first")
        }
    }

    // MARK: Actions

    private mutating func checkAction(_ action: Action, at path: JSONPath, comparingAcrossCategories: Bool) {
        checkIdentifier(action.identifier, at: path.appending("identifier"), kind: "action")
        checkText(action.title, at: path.appending("title"), allowEmpty: false, what: "title")
        // Pushbutton's own default "Send" carries its own translations; only the app's texts are linted.
        if let textInput = action.textInput, textInput.buttonTitle != TextInput.defaultButtonTitle {
            checkText(
                textInput.buttonTitle, at: path.appending("textInput").appending("buttonTitle"), allowEmpty: false,
                what: "send-button title")
        }
        if let textInput = action.textInput {
            checkText(
                textInput.placeholder, at: path.appending("textInput").appending("placeholder"), allowEmpty: true,
                what: "placeholder")
        }
        if let icon = action.icon, icon.name.trimmingCharacters(in: .whitespaces).isEmpty {
            report(
                .error, .emptyIcon, path.appending("icon"), "the icon's image name is empty",
                hint: "name an image or remove 'icon'")
        }
        let options = action.options
        if options.contains(.destructive) && options.contains(.foreground) {
            report(
                .note, .destructiveForeground, path.appending("options"),
                "'\(action.identifier)' is destructive and opens the app; this is legal, but users expect a destructive "
                    + "button to act without leaving the notification",
                hint: "drop 'foreground' if the action can run in the background, or confirm inside the app")
        }
        if options.contains(.destructive) && !options.contains(.foreground)
            && !options.contains(.authenticationRequired)
        {
            report(
                .warning, .destructiveUnauthenticated, path.appending("options"),
                "'\(action.identifier)' is destructive, runs in the background and does not require authentication: "
                    + "anyone holding the locked phone can trigger it",
                hint: "add \"authenticationRequired\" to its options")
        }
        if comparingAcrossCategories { checkConsistency(action, at: path) }
    }

    private mutating func checkConsistency(_ action: Action, at path: JSONPath) {
        guard !action.identifier.isEmpty else { return }
        guard let first = firstActions[action.identifier] else {
            firstActions[action.identifier] = (action, path)
            return
        }
        guard first.action != action else { return }
        report(
            .warning, .inconsistentAction, path,
            "action '\(action.identifier)' is defined differently at \(first.path); the app receives the same "
                + "identifier for both buttons",
            hint: "use one definition for the identifier, or give the buttons different identifiers")
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: a newline, a NUL or an
    /// escape in an identifier is never meant, and ends lines in generated code and terminals.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private mutating func checkIdentifier(_ identifier: String, at path: JSONPath, kind: String) {
        if identifier.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            report(
                .error, .emptyIdentifier, path, "the \(kind) identifier is empty",
                hint: "give the \(kind) a unique identifier")
            return
        }
        if SystemIdentifiers.isSystemIdentifier(identifier) {
            report(
                .error, .systemIdentifier, path,
                "'\(identifier)' is the system's own response identifier and cannot name an app's \(kind)",
                hint: "pick another identifier")
        } else if SystemIdentifiers.isReserved(identifier) {
            report(
                .error, .reservedPrefix, path,
                "'\(identifier)' uses Pushbutton's reserved prefix '\(SystemIdentifiers.reservedPrefix)'",
                hint: kind == "category" && BuiltinCategories.identifiers.contains(identifier)
                    ? "list it in 'builtins' instead of redefining it" : "remove the prefix")
        }
        if identifier.unicodeScalars.contains(where: Self.isControl) {
            report(
                .error, .identifierControlCharacter, path,
                "the \(kind) identifier '\(TerminalText.escaped(identifier))' contains a control character",
                hint:
                    "identifiers travel in payloads, headers and generated code; use letters, digits, '_', '-' and '.'")
        } else if identifier.unicodeScalars.contains(where: { CharacterSet.whitespacesAndNewlines.contains($0) }) {
            report(
                .warning, .identifierWhitespace, path, "the \(kind) identifier '\(identifier)' contains white space",
                hint: "identifiers are compared exactly; use letters, digits, '_', '-' and '.'")
        }
        if identifier.utf8.count > Self.identifierLengthLimit {
            report(
                .warning, .identifierLength, path,
                "the \(kind) identifier is \(identifier.utf8.count) bytes long; it travels in payloads limited to 4096 bytes",
                hint: "keep identifiers under \(Self.identifierLengthLimit) bytes")
        }
    }

    // MARK: Text

    private mutating func checkText(_ text: LocalizedText, at path: JSONPath, allowEmpty: Bool, what: String) {
        switch text {
        case .literal(let literal):
            if !allowEmpty && literal.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                report(.error, .emptyTitle, path, "the \(what) is empty", hint: "write the text users should see")
            }
            checkLength(literal, at: path, what: what)
            if manifest.locales.count > 1 && !literal.isEmpty {
                report(
                    .note, .missingTranslation, path,
                    "the \(what) \"\(literal)\" is not localized, but the manifest declares \(manifest.locales.count) locales",
                    hint: "write {\"key\": …, \"values\": {\"\(manifest.locales[0])\": …}} to translate it")
            }
        case .localized(let key, let values):
            if key.isEmpty {
                report(
                    .error, .emptyLocalization, path.appending("key"), "the localization key is empty",
                    hint: "name the key")
            }
            if values.isEmpty {
                report(
                    .error, .emptyLocalization, path.appending("values"), "the localized \(what) has no translations",
                    hint: "add at least \"\(manifest.defaultLocale)\"")
                return
            }
            checkTranslations(values, at: path, allowEmpty: allowEmpty, what: what)
        }
    }

    private mutating func checkTranslations(
        _ values: [String: String], at path: JSONPath, allowEmpty: Bool, what: String
    ) {
        for (locale, value) in values.sorted(by: { $0.key < $1.key }) {
            let valuePath = path.appending("values").appending(locale)
            if !allowEmpty && value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                report(.error, .emptyTitle, valuePath, "the \(what) is empty in '\(locale)'", hint: "translate it")
            }
            checkLength(value, at: valuePath, what: what)
            if !manifest.locales.isEmpty && !manifest.locales.contains(locale) {
                report(
                    .warning, .undeclaredLocale, valuePath,
                    "translation for '\(locale)', which is not among the declared locales",
                    hint: Suggestion.didYouMean(locale, among: manifest.locales)
                        ?? "add '\(locale)' to 'locales' or remove the translation")
            }
        }
        let missing = manifest.locales.filter { values[$0] == nil }
        if !missing.isEmpty {
            report(
                .warning, .missingTranslation, path.appending("values"),
                "the \(what) has no translation for \(missing.map { "'\($0)'" }.joined(separator: ", ")); "
                    + "users there see the '\(manifest.defaultLocale)' text",
                hint: "add \(missing.map { "\"\($0)\"" }.joined(separator: ", ")) to 'values'")
        }
    }

    private mutating func checkLength(_ text: String, at path: JSONPath, what: String) {
        guard what == "title", text.count > Self.titleLengthLimit else { return }
        report(
            .note, .longTitle, path,
            "the title is \(text.count) characters long; buttons show about \(Self.titleLengthLimit) before truncating",
            hint: "shorten it")
    }
}
