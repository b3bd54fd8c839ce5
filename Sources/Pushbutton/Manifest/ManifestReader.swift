/// Turns manifest JSON into the model, collecting type and structure diagnostics as it goes.
///
/// It reads as much as it can: a wrong member is reported and skipped, so one run shows every problem.
/// The semantic rules (identifiers, translations, limits) live in ``ManifestLinter``.
struct ManifestReader {
    var diagnostics: [Diagnostic] = []

    /// The manifest and the source path of each category, built-in and legacy category it kept.
    struct ReadManifest {
        var manifest: Manifest
        var categoryPaths: [JSONPath]
        var legacyPaths: [JSONPath]
        var builtinPaths: [JSONPath]
    }

    static let manifestKeys = [
        "$schema", "version", "description", "defaultLocale", "locales", "builtins", "options", "categories",
        "legacyCategories",
    ]
    static let optionsKeys = ["backgroundActionsRequireAuthentication"]
    static let categoryKeys = [
        "identifier", "actions", "intentIdentifiers", "hiddenPreviewsBodyPlaceholder", "summaryFormat", "options",
    ]
    static let actionKeys = ["identifier", "title", "options", "icon", "textInput"]
    static let legacyCategoryKeys = ["identifier", "defaultActions", "minimalActions"]
    static let legacyActionKeys = [
        "identifier", "title", "activationMode", "destructive", "authenticationRequired", "behavior", "parameters",
    ]
    static let legacyOnlyActionKeys = [
        "activationMode", "destructive", "authenticationRequired", "behavior", "parameters",
    ]

    mutating func readManifest(_ value: JSONValue) -> ReadManifest? {
        guard let object = ObjectReader(value, at: .root, what: "the manifest", diagnostics: &diagnostics) else {
            return nil
        }
        object.reportUnknownKeys(known: Self.manifestKeys, in: "the manifest", diagnostics: &diagnostics)
        var manifest = Manifest()
        readVersion(object, into: &manifest)
        manifest.locales = object.strings("locales", diagnostics: &diagnostics) ?? []
        manifest.defaultLocale =
            object.string("defaultLocale", diagnostics: &diagnostics) ?? manifest.locales.first ?? "en"
        if let options = object.members["options"],
            let reader = ObjectReader(
                options, at: .root.appending("options"), what: "'options'", diagnostics: &diagnostics)
        {
            reader.reportUnknownKeys(known: Self.optionsKeys, in: "the manifest options", diagnostics: &diagnostics)
            manifest.backgroundActionsRequireAuthentication =
                reader.bool("backgroundActionsRequireAuthentication", diagnostics: &diagnostics) ?? true
        }
        var builtinPaths: [JSONPath] = []
        for (index, element) in (object.array("builtins", diagnostics: &diagnostics) ?? []).enumerated() {
            let path = JSONPath.root.appending("builtins").appending(index)
            guard let name = element.stringValue else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: path,
                        "a built-in must be named by a string, not \(element.typeDescription)"))
                continue
            }
            manifest.builtins.append(name)
            builtinPaths.append(path)
        }
        var categoryPaths: [JSONPath] = []
        for (index, element) in (object.array("categories", diagnostics: &diagnostics) ?? []).enumerated() {
            let path = JSONPath.root.appending("categories").appending(index)
            if let category = readCategory(element, at: path) {
                manifest.categories.append(category)
                categoryPaths.append(path)
            }
        }
        var legacyPaths: [JSONPath] = []
        for (index, element) in (object.array("legacyCategories", diagnostics: &diagnostics) ?? []).enumerated() {
            let path = JSONPath.root.appending("legacyCategories").appending(index)
            if let legacy = readLegacyCategory(element, at: path) {
                manifest.legacyCategories.append(legacy)
                legacyPaths.append(path)
            }
        }
        if !object.has("categories") && !object.has("builtins") && !object.has("legacyCategories") {
            diagnostics.append(
                Diagnostic(
                    .warning, .noActions, at: .root, "the manifest declares no categories",
                    hint: "add 'categories', 'builtins' or 'legacyCategories'"))
        }
        return ReadManifest(
            manifest: manifest, categoryPaths: categoryPaths, legacyPaths: legacyPaths, builtinPaths: builtinPaths)
    }

    private mutating func readVersion(_ object: ObjectReader, into manifest: inout Manifest) {
        let path = JSONPath.root.appending("version")
        guard let value = object.members["version"] else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: path, "the manifest has no 'version'",
                    hint: "add \"version\": \(Manifest.currentVersion)"))
            return
        }
        guard let version = value.integerValue, version == Manifest.currentVersion else {
            diagnostics.append(
                Diagnostic(
                    .error, .unsupportedVersion, at: path,
                    "manifest version \(JSONWriterText.compact(value)) is not supported; this Pushbutton reads "
                        + "version \(Manifest.currentVersion)",
                    hint: "set \"version\": \(Manifest.currentVersion), or upgrade Pushbutton"))
            return
        }
        manifest.version = Int(version)
    }

    mutating func readCategory(_ value: JSONValue, at path: JSONPath) -> Category? {
        guard let object = ObjectReader(value, at: path, what: "a category", diagnostics: &diagnostics) else {
            return nil
        }
        if object.has("defaultActions") || object.has("minimalActions") {
            diagnostics.append(
                Diagnostic(
                    .error, .legacyModernMixed, at: path,
                    "this category uses the iOS 8/9 action contexts (defaultActions/minimalActions) inside 'categories'",
                    hint: "move it to 'legacyCategories' to have it converted, or list its buttons in 'actions'"))
        }
        let legacyKeys = ["defaultActions", "minimalActions"]
        object.reportUnknownKeys(known: Self.categoryKeys + legacyKeys, in: "a category", diagnostics: &diagnostics)
        var category = Category(
            object.string("identifier", required: true, diagnostics: &diagnostics) ?? "", actions: [])
        let actionsPath = path.appending("actions")
        for (index, element) in (object.array("actions", diagnostics: &diagnostics) ?? []).enumerated() {
            if let action = readAction(element, at: actionsPath.appending(index)) { category.actions.append(action) }
        }
        category.intentIdentifiers = object.strings("intentIdentifiers", diagnostics: &diagnostics) ?? []
        category.hiddenPreviewsBodyPlaceholder = readText(object, "hiddenPreviewsBodyPlaceholder")
        category.summaryFormat = readText(object, "summaryFormat")
        category.options = readOptions(object, names: CategoryOptions.names, what: "category") ?? []
        return category
    }

    mutating func readAction(_ value: JSONValue, at path: JSONPath) -> Action? {
        guard let object = ObjectReader(value, at: path, what: "an action", diagnostics: &diagnostics) else {
            return nil
        }
        let legacyKeys = Self.legacyOnlyActionKeys.filter(object.has)
        if !legacyKeys.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .error, .legacyModernMixed, at: path,
                    "this action uses iOS 8/9 properties (\(legacyKeys.joined(separator: ", "))) in a modern category",
                    hint:
                        "write them as \"options\": [\"foreground\", \"destructive\", \"authenticationRequired\"] and "
                        + "\"textInput\", or move the category to 'legacyCategories'"))
        }
        object.reportUnknownKeys(
            known: Self.actionKeys + Self.legacyOnlyActionKeys, in: "an action", diagnostics: &diagnostics)
        let identifier = object.string("identifier", required: true, diagnostics: &diagnostics) ?? ""
        let title = readText(object, "title", required: true) ?? .literal("")
        var action = Action(identifier, title: title)
        action.options = readOptions(object, names: ActionOptions.names, what: "action") ?? []
        if let icon = object.members["icon"] { action.icon = readIcon(icon, at: path.appending("icon")) }
        if let textInput = object.members["textInput"] {
            action.textInput = readTextInput(textInput, at: path.appending("textInput"), action: identifier)
        }
        return action
    }

    private mutating func readIcon(_ value: JSONValue, at path: JSONPath) -> ActionIcon? {
        guard let object = ObjectReader(value, at: path, what: "'icon'", diagnostics: &diagnostics) else { return nil }
        object.reportUnknownKeys(known: ["systemImage", "templateImage"], in: "an icon", diagnostics: &diagnostics)
        let system = object.string("systemImage", diagnostics: &diagnostics)
        let template = object.string("templateImage", diagnostics: &diagnostics)
        switch (system, template) {
        case (let system?, nil): return .system(system)
        case (nil, let template?): return .template(template)
        case (.some, .some):
            diagnostics.append(
                Diagnostic(
                    .error, .iconConflict, at: path, "an icon names both a system image and a template image",
                    hint: "keep one of 'systemImage' and 'templateImage'"))
        case (nil, nil):
            diagnostics.append(
                Diagnostic(
                    .error, .emptyIcon, at: path, "an icon needs 'systemImage' (an SF Symbol) or 'templateImage'",
                    hint: "add \"systemImage\": \"heart\", or remove 'icon'"))
        }
        return nil
    }

    private mutating func readTextInput(_ value: JSONValue, at path: JSONPath, action: String) -> TextInput? {
        guard let object = ObjectReader(value, at: path, what: "'textInput'", diagnostics: &diagnostics) else {
            return nil
        }
        object.reportUnknownKeys(known: ["buttonTitle", "placeholder"], in: "'textInput'", diagnostics: &diagnostics)
        var input = TextInput(placeholder: readText(object, "placeholder") ?? "")
        if let buttonTitle = readText(object, "buttonTitle") {
            input.buttonTitle = buttonTitle
        } else {
            diagnostics.append(
                Diagnostic(
                    .warning, .textInputButtonTitle, at: path,
                    "text-input action '\(action)' has no send-button title; the localized \"Send\" is used",
                    hint: "add \"buttonTitle\" to 'textInput'"))
        }
        return input
    }

    /// Reads a literal string or `{"key": …, "values": {locale: text}}`.
    mutating func readText(_ object: ObjectReader, _ key: String, required: Bool = false) -> LocalizedText? {
        let path = object.path.appending(key)
        guard let value = object.members[key] else {
            if required {
                diagnostics.append(
                    Diagnostic(.error, .missingField, at: path, "required member '\(key)' is missing"))
            }
            return nil
        }
        if let literal = value.stringValue { return .literal(literal) }
        guard
            let text = ObjectReader(
                value, at: path, what: "'\(key)' (a string or a localized text)", diagnostics: &diagnostics)
        else { return nil }
        text.reportUnknownKeys(known: ["key", "values"], in: "a localized text", diagnostics: &diagnostics)
        let localizationKey = text.string("key", required: true, diagnostics: &diagnostics) ?? ""
        var values: [String: String] = [:]
        if let translations = text.members["values"],
            let reader = ObjectReader(
                translations, at: path.appending("values"), what: "'values'", diagnostics: &diagnostics)
        {
            for locale in reader.members.keys.sorted() {
                if let translation = reader.string(locale, diagnostics: &diagnostics) { values[locale] = translation }
            }
        }
        return .localized(key: localizationKey, values: values)
    }

    private mutating func readOptions<Option: OptionSet>(
        _ object: ObjectReader, names: [(name: String, option: Option)], what: String
    ) -> Option? where Option.Element == Option {
        guard let list = object.strings("options", diagnostics: &diagnostics) else { return nil }
        var options: Option = []
        for (index, name) in list.enumerated() {
            if let match = names.first(where: { $0.name == name }) {
                options.insert(match.option)
            } else {
                let known = names.map(\.name)
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownOption, at: object.path.appending("options").appending(index),
                        "'\(name)' is not \(what == "action" ? "an" : "a") \(what) option",
                        hint: Suggestion.didYouMean(name, among: known)
                            ?? "\(what) options are \(known.joined(separator: ", "))"))
            }
        }
        return options
    }

    mutating func readLegacyCategory(_ value: JSONValue, at path: JSONPath) -> LegacyCategory? {
        guard let object = ObjectReader(value, at: path, what: "a legacy category", diagnostics: &diagnostics) else {
            return nil
        }
        if object.has("actions") {
            diagnostics.append(
                Diagnostic(
                    .error, .legacyModernMixed, at: path.appending("actions"),
                    "a legacy category lists its actions per context, not in 'actions'",
                    hint: "rename 'actions' to 'defaultActions', or move the category to 'categories'"))
        }
        object.reportUnknownKeys(
            known: Self.legacyCategoryKeys + ["actions"], in: "a legacy category", diagnostics: &diagnostics)
        var legacy = LegacyCategory(object.string("identifier", required: true, diagnostics: &diagnostics) ?? "")
        legacy.defaultActions = readLegacyActions(object, "defaultActions")
        legacy.minimalActions = readLegacyActions(object, "minimalActions")
        return legacy
    }

    private mutating func readLegacyActions(_ object: ObjectReader, _ key: String) -> [LegacyAction] {
        var actions: [LegacyAction] = []
        for (index, element) in (object.array(key, diagnostics: &diagnostics) ?? []).enumerated() {
            if let action = readLegacyAction(element, at: object.path.appending(key).appending(index)) {
                actions.append(action)
            }
        }
        return actions
    }

    mutating func readLegacyAction(_ value: JSONValue, at path: JSONPath) -> LegacyAction? {
        guard let object = ObjectReader(value, at: path, what: "a legacy action", diagnostics: &diagnostics) else {
            return nil
        }
        if object.has("options") || object.has("textInput") {
            diagnostics.append(
                Diagnostic(
                    .error, .legacyModernMixed, at: path,
                    "this legacy action uses modern properties ('options'/'textInput')",
                    hint: "use activationMode, destructive, authenticationRequired and behavior, or move the "
                        + "category to 'categories'"))
        }
        object.reportUnknownKeys(
            known: Self.legacyActionKeys + ["options", "textInput"], in: "a legacy action", diagnostics: &diagnostics)
        var action = LegacyAction(
            object.string("identifier", required: true, diagnostics: &diagnostics) ?? "",
            title: readText(object, "title", required: true) ?? "")
        action.activationMode = readEnum(object, "activationMode", default: .background)
        action.behavior = readEnum(object, "behavior", default: .default)
        action.isDestructive = object.bool("destructive", diagnostics: &diagnostics) ?? false
        action.isAuthenticationRequired = object.bool("authenticationRequired", diagnostics: &diagnostics) ?? false
        if let parameters = object.members["parameters"],
            let reader = ObjectReader(
                parameters, at: path.appending("parameters"), what: "'parameters'", diagnostics: &diagnostics)
        {
            for key in reader.members.keys.sorted() {
                if let text = reader.string(key, diagnostics: &diagnostics) { action.parameters[key] = text }
            }
        }
        return action
    }

    private mutating func readEnum<Value: RawRepresentable & CaseIterable>(
        _ object: ObjectReader, _ key: String, default defaultValue: Value
    ) -> Value where Value.RawValue == String {
        guard let name = object.string(key, diagnostics: &diagnostics) else { return defaultValue }
        if let value = Value(rawValue: name) { return value }
        let known = Value.allCases.map(\.rawValue)
        diagnostics.append(
            Diagnostic(
                .error, .unknownOption, at: object.path.appending(key), "'\(name)' is not a valid \(key)",
                hint: Suggestion.didYouMean(name, among: known) ?? "use one of \(known.joined(separator: ", "))"))
        return defaultValue
    }
}
