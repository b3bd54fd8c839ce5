import Foundation

/// Checks payloads against the categories a manifest declares, before anything is sent.
///
/// Create one per manifest and reuse it: it keeps the merged category set. Without a manifest
/// (``init()``), every check that needs no category definitions still runs: the size budget for the push
/// type, value ranges, built-in action names and their arguments, URL shapes and dynamic buttons.
public struct PayloadValidator: Sendable {
    /// How the payload will be sent, which changes what is valid.
    public struct Context: Sendable, Hashable {
        /// The `apns-push-type` header the payload will be sent with; it sets the size limit (4096 bytes, 5120 for
        /// VoIP) and which content fits.
        public var pushType: PushType
        /// The `apns-priority` header, when known.
        public var priority: Int?
        /// The `apns-topic` header, when known: checked against the suffix the push type needs.
        public var topic: String?

        /// Describes a send; unknown priority and topic skip the checks that need them.
        public init(pushType: PushType = .alert, priority: Int? = nil, topic: String? = nil) {
            self.pushType = pushType
            self.priority = priority
            self.topic = topic
        }
    }

    /// The categories a device registered from the manifest.
    public let categories: CategorySet
    /// Whether the categories are the app's (from a manifest), so a category not among them is an error.
    public let knowsCategories: Bool
    /// What validation needs of each category, looked up once per payload without copying the category.
    private let index: [String: CategoryIndex]

    /// A validator for the categories `manifest` declares (modern, legacy and built-in, merged).
    public init(manifest: Manifest) {
        self.init(categories: manifest.categorySet())
    }

    /// A validator for `categories`: a payload naming a category not among them is an error.
    public init(categories: CategorySet) {
        self.init(categories: categories, knowsCategories: true)
    }

    /// A validator without a manifest: it cannot tell which categories and buttons the app registered, so
    /// it skips those checks and runs every other one.
    public init() {
        self.init(categories: CategorySet(), knowsCategories: false)
    }

    private init(categories: CategorySet, knowsCategories: Bool) {
        self.categories = categories
        self.knowsCategories = knowsCategories
        index = Dictionary(uniqueKeysWithValues: categories.map { ($0.identifier, CategoryIndex($0)) })
    }

    /// Every problem with `payload`, with JSON paths. `encodedSize` saves writing the payload again
    /// when the caller already has its bytes.
    public func validate(_ payload: Payload, context: Context = Context(), encodedSize: Int? = nil) -> [Diagnostic] {
        var check = PayloadCheck(
            context: context, categories: categories, knowsCategories: knowsCategories, index: index)
        check.run(payload, encodedSize: encodedSize)
        return check.diagnostics.count > 1 ? check.diagnostics.sortedForDisplay() : check.diagnostics
    }

    /// Parses `bytes` and validates the payload, with every diagnostic located in the text.
    public func validate(jsonBytes bytes: [UInt8], context: Context = Context()) -> PayloadParseResult {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(bytes, recordingLocations: true)
        } catch {
            return Payload.parse(bytes)
        }
        var result = Payload.parse(document.value)
        // An MDM push is {"mdm": "<push magic>"}: it has no aps dictionary to miss.
        if context.pushType == .mdm { result.diagnostics.removeAll { $0.code == .missingAPS } }
        if context.pushType == .liveactivity { result.diagnostics.removeAll(where: LiveActivityValidator.isAlertSound) }
        if let payload = result.payload {
            result.diagnostics += validate(payload, context: context, encodedSize: bytes.count)
        }
        result.diagnostics = document.locating(result.diagnostics)
        return result
    }
}

/// One validation run: the rules, in the order a reader would check them. The payload is passed to each
/// rule rather than stored, so it is borrowed, never copied (copying one costs more than checking it).
private struct PayloadCheck {
    let context: PayloadValidator.Context
    let categories: CategorySet
    let knowsCategories: Bool
    let index: [String: CategoryIndex]
    var diagnostics: [Diagnostic] = []

    private static let aps = JSONPath.root.appending("aps")
    private static let actionsPath = JSONPath.root.appending(Payload.actionsKey)
    /// Each built-in action's argument names, by ``ActionSpec/Builtin/ordinal``: made once, not per action.
    private static let argumentNames: [[String]] = {
        var table = [[String]](repeating: [], count: ActionSpec.Builtin.allCases.count)
        for builtin in ActionSpec.Builtin.allCases { table[builtin.ordinal] = builtin.info.argumentNames }
        return table
    }()

    init(
        context: PayloadValidator.Context, categories: CategorySet, knowsCategories: Bool,
        index: [String: CategoryIndex]
    ) {
        self.context = context
        self.categories = categories
        self.knowsCategories = knowsCategories
        self.index = index
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ path: JSONPath, _ message: String,
        hint: String? = nil
    ) {
        diagnostics.append(Diagnostic(severity, code, at: path, message, hint: hint))
    }

    mutating func run(_ payload: Payload, encodedSize: Int?) {
        checkSize(payload, encodedSize ?? PayloadWriter.encode(payload).count)
        checkPushType(payload)
        diagnostics += PushTypeRules.check(payload, context: context)
        diagnostics += MediaRules.check(payload)
        checkValues(payload)
        let category = resolveCategory(payload)
        checkActions(payload, in: category)
    }

    // MARK: Size, push type and values

    private mutating func checkSize(_ payload: Payload, _ size: Int) {
        let limit = context.pushType.maximumPayloadSize
        guard size > limit else { return }
        let sizeReport = payload.sizeReport(pushType: context.pushType)
        let largest = sizeReport.largestFields.prefix(3).map { "\($0.path) (\($0.bytes) bytes)" }.joined(
            separator: ", ")
        report(
            .error, .payloadTooLarge, .root,
            "the payload is \(size) bytes, \(size - limit) over APNs' \(limit)-byte limit for \(context.pushType) pushes; "
                + "largest: \(largest)",
            hint: "shorten those fields, or ask for truncatingAlertBody(toFit: \(limit)) / --truncate")
    }

    private mutating func checkPushType(_ payload: Payload) {
        let type = context.pushType
        if type != .alert && !PushType.known.contains(type) {
            report(
                .error, .unknownValue, .root, "'\(type)' is not an APNs push type",
                hint: Suggestion.didYouMean(type.rawValue, among: PushType.known.map(\.rawValue)))
        }
        let visible = payload.aps.hasAlert || payload.aps.hasSound || payload.aps.badge != nil
        let contentAvailable = payload.aps.contentAvailable
        let backgroundOnly = contentAvailable && !visible
        if backgroundOnly && context.priority == 10 {
            report(
                .error, .backgroundPriority, Self.aps.appending("content-available"),
                "a background push (content-available without alert, sound or badge) is sent with priority 10",
                hint: "send background pushes with apns-priority 5; APNs rejects or throttles priority 10")
        }
        if type == .background {
            if !contentAvailable {
                report(
                    .error, .pushTypeMismatch, Self.aps, "a background push needs \"content-available\": 1",
                    hint: "add it, or send the payload as an alert push")
            }
            if visible {
                report(
                    .warning, .pushTypeMismatch, Self.aps,
                    "a background push carries an alert, sound or badge, which the system will not show",
                    hint: "send it with push type alert")
            }
        } else if type == .alert {
            if backgroundOnly {
                report(
                    .warning, .pushTypeMismatch, Self.aps,
                    "this payload only wakes the app (content-available without alert, sound or badge)",
                    hint: "send it with push type background and priority 5")
            } else if !visible && !contentAvailable {
                report(
                    .error, .missingAlert, Self.aps, "an alert push has nothing to show: no alert, sound or badge",
                    hint: "add \"alert\": {\"title\": …, \"body\": …}")
            }
            if payload.aps.category != nil && !payload.aps.hasAlert {
                report(
                    .error, .missingAlert, Self.aps.appending("category"),
                    "the payload names a category but has no alert, so there is no notification to show its buttons",
                    hint: "add \"alert\"")
            }
        }
        if payload.aps.mutableContent && !payload.aps.hasAlert {
            report(
                .warning, .missingAlert, Self.aps.appending("mutable-content"),
                "mutable-content has no effect without an alert: service extensions only run for visible notifications",
                hint: "add an alert or remove mutable-content")
        }
    }

    private mutating func checkValues(_ payload: Payload) {
        if let badge = payload.aps.badge, badge < 0 {
            report(
                .error, .valueRange, Self.aps.appending("badge"), "the badge is negative (\(badge))",
                hint: "use 0 to clear it")
        }
        // A Live Activity's relevance score only orders the app's activities: any number is fine there.
        if let score = payload.aps.relevanceScore, !(0...1).contains(score), context.pushType != .liveactivity {
            report(
                .error, .valueRange, Self.aps.appending("relevance-score"), "relevance-score \(score) is outside 0…1")
        }
        if case .critical(_, let volume?, _) = payload.aps.sound, !(0...1).contains(volume) {
            report(
                .error, .valueRange, Self.aps.appending("sound").appending("volume"),
                "the volume \(volume) is outside 0…1")
        }
        if let level = payload.aps.interruptionLevel {
            if !InterruptionLevel.known.contains(level) {
                report(
                    .error, .unknownValue, Self.aps.appending("interruption-level"),
                    "'\(level)' is not an interruption level",
                    hint: Suggestion.didYouMean(level.rawValue, among: InterruptionLevel.known.map(\.rawValue))
                        ?? "use passive, active, time-sensitive or critical")
            } else if level == .critical {
                report(
                    .note, .unknownValue, Self.aps.appending("interruption-level"),
                    "critical alerts need Apple's critical-alerts entitlement; without it the level is ignored")
            }
        }
    }

    // MARK: Categories and actions

    /// The category whose buttons the payload shows, reporting why when it cannot be found.
    private mutating func resolveCategory(_ payload: Payload) -> CategoryIndex? {
        // `payload.actions?…` each time, not `let actions = payload.actions`: that copies all the actions.
        if let dynamic = payload.actions?.dynamicButtons, !dynamic.isEmpty {
            return checkDynamicButtons(payload, dynamic)
        }
        guard let identifier = payload.aps.category else {
            if payload.actions?.buttons.isEmpty == false {
                report(
                    .error, .noCategory, Self.actionsPath.appending("buttons"),
                    "the payload says what buttons do but names no category, so no buttons are shown",
                    hint: "set aps.category to the category that has these buttons")
            }
            if payload.actionArguments != nil {
                report(
                    .warning, .noCategory, .root.appending(Payload.actionArgumentsKey),
                    "'action_args' is for the tapped button's action, but the payload names no category",
                    hint: "set aps.category")
            }
            return nil
        }
        if let category = index.scannedValue(forKey: identifier, scanningUpTo: 8) { return category }
        guard knowsCategories else { return nil }
        let suggestion = Suggestion.didYouMean(identifier, among: categories.identifiers)
        report(
            .error, .unknownCategory, Self.aps.appending("category"),
            "category '\(identifier)' is not declared in the manifest: the device shows no buttons, and no error",
            hint: suggestion
                ?? (DynamicCategories.isDynamic(identifier)
                    ? "a dynamic category needs its buttons in pushbutton.define"
                    : "declare '\(identifier)' in the manifest's categories (or list the built-in), and ship the app update")
        )
        return nil
    }

    private mutating func checkDynamicButtons(_ payload: Payload, _ buttons: [DynamicButton]) -> CategoryIndex? {
        let path = Self.actionsPath.appending("define")
        if buttons.count > DynamicCategories.maximumButtons {
            report(
                .error, .dynamicButtons, path,
                "\(buttons.count) dynamic buttons; at most \(DynamicCategories.maximumButtons) are allowed",
                hint: "keep the buttons users need most")
        }
        var seen = Set<String>()
        for (index, button) in buttons.enumerated() {
            let buttonPath = path.appending(index)
            if button.identifier.isEmpty || SystemIdentifiers.isSystemIdentifier(button.identifier)
                || SystemIdentifiers.isReserved(button.identifier)
            {
                report(
                    .error, .dynamicButtons, buttonPath.appending("id"),
                    "'\(button.identifier)' cannot identify a button (empty, a system identifier or Pushbutton's prefix)"
                )
            }
            if !seen.insert(button.identifier).inserted {
                report(
                    .error, .dynamicButtons, buttonPath.appending("id"),
                    "button '\(button.identifier)' is defined twice")
            }
            if button.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                report(.error, .emptyTitle, buttonPath.appending("title"), "the dynamic button's title is empty")
            }
        }
        if !payload.aps.mutableContent {
            report(
                .warning, .dynamicButtons, Self.aps.appending("mutable-content"),
                "dynamic buttons without \"mutable-content\": 1: on a device they appear only if a Notification "
                    + "Service Extension registers their category before display, and it runs only for mutable content",
                hint: "add \"mutable-content\": 1 (--mutable-content), and register the buttons in the extension")
        }
        let category = DynamicCategories.category(for: buttons)
        if payload.aps.category != category.identifier {
            report(
                .error, .dynamicButtons, Self.aps.appending("category"),
                "with dynamic buttons, aps.category must be the derived identifier '\(category.identifier)'"
                    + (payload.aps.category.map { ", not '\($0)'" } ?? ""),
                hint: "set \"category\": \"\(category.identifier)\" (PayloadBuilder does it for you)")
        }
        return CategoryIndex(category)
    }

    private mutating func checkActions(_ payload: Payload, in category: CategoryIndex?) {
        // `payload.actions!.…` each time: binding `let actions` would copy every member of the actions.
        guard payload.hasActions else { return checkActionArguments(payload, in: category) }
        if category == nil && !knowsCategories {
            // Without a manifest the buttons' traits are unknown: check what the specs say by themselves.
            for (button, specs) in payload.actions!.buttons {
                for (index, spec) in specs.enumerated() {
                    check(
                        spec, at: Self.actionsPath.appending("buttons").appending(button).appending(index),
                        button: (button, .unknown))
                }
            }
        }
        if let category {
            // Dictionary order: the diagnostics are sorted once at the end, so nothing is sorted per payload.
            for (button, specs) in payload.actions!.buttons {
                guard let traits = category.buttons.scannedValue(forKey: button, scanningUpTo: 8) else {
                    report(
                        .error, .unknownButton, Self.actionsPath.appending("buttons").appending(button),
                        "category '\(category.identifier)' has no button '\(button)', so these actions never run",
                        hint: Suggestion.didYouMean(button, among: category.buttonOrder)
                            ?? "its buttons are \(category.buttonOrder.joined(separator: ", "))")
                    continue
                }
                for (index, spec) in specs.enumerated() {
                    check(
                        spec, at: Self.actionsPath.appending("buttons").appending(button).appending(index),
                        button: (button, traits))
                }
            }
        }
        for (index, spec) in payload.actions!.body.enumerated() {
            check(spec, at: Self.actionsPath.appending("body").appending(index), button: nil, background: false)
        }
        if !payload.actions!.dismiss.isEmpty, let category, !category.reportsDismissal {
            report(
                .error, .dismissNotReported, Self.actionsPath.appending("dismiss"),
                "category '\(category.identifier)' lacks customDismissAction, so dismissals are never reported and "
                    + "these actions never run",
                hint: "add \"customDismissAction\" to the category's options in the manifest")
        }
        for (index, spec) in payload.actions!.dismiss.enumerated() {
            check(spec, at: Self.actionsPath.appending("dismiss").appending(index), button: nil, background: true)
        }
        checkActionArguments(payload, in: category)
    }

    private mutating func checkActionArguments(_ payload: Payload, in category: CategoryIndex?) {
        guard payload.actionArguments != nil, let category, category.buttons.isEmpty else { return }
        report(
            .warning, .noActions, .root.appending(Payload.actionArgumentsKey),
            "'action_args' is given but category '\(category.identifier)' has no buttons to receive it")
    }

    /// One action spec, run by `action`'s tap (nil for the body tap or a dismissal). The path is built
    /// only when something is reported. `depth` counts the groups the spec sits in, itself included.
    private mutating func check(
        _ spec: ActionSpec, at path: @autoclosure () -> JSONPath, button: (name: String, traits: ButtonTraits)?,
        background: Bool? = nil, depth: Int = 1
    ) {
        let background = background ?? button?.traits.runsInBackground ?? false
        // One classification of the name serves every rule below.
        let builtin = spec.builtin
        if builtin == nil && SystemIdentifiers.isReserved(spec.name) {
            report(
                .error, .unknownBuiltinAction, path().appending("action"),
                "'\(spec.name)' is not one of Pushbutton's built-in actions",
                hint: Suggestion.didYouMean(spec.name, among: ActionSpec.builtinNames)
                    ?? "built-in actions are \(ActionSpec.builtinNames.joined(separator: ", "))")
            return
        }
        guard let builtin else { return }
        if builtin.needsForeground && background {
            checkForeground(spec, builtin, at: path(), button: button)
        }
        switch builtin {
        case .deepLink:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkURL(
                spec.argumentValues["url"], at: path().appending("args").appending("url"),
                webOnly: false)
        case .openURL:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkURL(
                spec.argumentValues["url"], at: path().appending("args").appending("url"), webOnly: true
            )
        case .callback:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkCallback(spec, at: path().appending("args"), button: button)
        case .dismiss:
            if !spec.argumentValues.isEmpty {
                report(
                    .warning, .actionArguments, path().appending("args"),
                    "pushbutton.dismiss takes no arguments; they are ignored")
            }
        case .copy:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            _ = requiredString("text", of: spec, at: path().appending("args"))
        case .rateApp:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
        case .openSettings:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkSettingsPage(spec, at: path().appending("args").appending("page"))
        case .requestPermission:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkPermissionOptions(spec, at: path().appending("args").appending("options"))
        case .share:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkShare(spec, at: path().appending("args"))
        case .addTag, .removeTag:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkTags(spec, at: path().appending("args"))
        case .group:
            checkKnownArguments(spec, builtin, at: path().appending("args"))
            checkGroup(
                spec, at: path().appending("args").appending("actions"), button: button, background: background,
                depth: depth)
        }
    }

    /// A foreground-only action where the app stays in the background.
    private mutating func checkForeground(
        _ spec: ActionSpec, _ builtin: ActionSpec.Builtin, at path: JSONPath,
        button: (name: String, traits: ButtonTraits)?
    ) {
        let what = button.map { "button '\($0.name)' runs in the background" } ?? "a dismissal runs in the background"
        let fix = "give the button the \"foreground\" option in the manifest"
        switch builtin {
        case .deepLink, .openURL:
            report(
                .error, .backgroundOpen, path.appending("action"),
                "\(spec.name) opens something, but \(what): on the device it would silently do nothing",
                hint: button != nil ? fix + ", or use pushbutton.callback" : "use pushbutton.callback")
        default:
            let doing: String
            switch builtin {
            case .copy: doing = "writes to the pasteboard, which iOS refuses to an app in the background"
            case .share: doing = "shows the share sheet"
            case .rateApp: doing = "shows the rating prompt"
            case .openSettings: doing = "opens the Settings app"
            default: doing = "shows the permission prompt"
            }
            report(
                .error, .backgroundInterface, path.appending("action"),
                "\(spec.name) \(doing), but \(what): on the device it would silently do nothing",
                hint: button != nil ? fix : "run it from a foreground button or the body tap")
        }
    }

    /// Arguments the action does not take: ignored on the device, so usually a typo.
    private mutating func checkKnownArguments(
        _ spec: ActionSpec, _ builtin: ActionSpec.Builtin, at path: @autoclosure () -> JSONPath
    ) {
        guard !spec.argumentValues.isEmpty else { return }
        let known = Self.argumentNames[builtin.ordinal]
        spec.argumentValues.forEach { key, _ in
            guard !known.contains(key) else { return }
            report(
                .warning, .actionArguments, path().appending(key),
                "\(spec.name) has no argument '\(key)'; it is ignored",
                hint: Suggestion.didYouMean(key, among: known)
                    ?? (known.isEmpty
                        ? "\(spec.name) takes no arguments" : "its arguments are \(known.joined(separator: ", "))"))
        }
    }

    /// A string argument that must be there and not be empty; `nil` (and reported) otherwise.
    private mutating func requiredString(_ key: String, of spec: ActionSpec, at path: @autoclosure () -> JSONPath)
        -> String?
    {
        guard let value = spec.argumentValues[key] else {
            report(
                .error, .actionArguments, path().appending(key), "\(spec.name) needs a '\(key)' string argument",
                hint: "add \"\(key)\": \"…\"")
            return nil
        }
        return string(value, key, of: spec, at: path())
    }

    /// The value as a non-empty string; `nil` (and reported) otherwise.
    private mutating func string(
        _ value: JSONValue, _ key: String, of spec: ActionSpec, at path: @autoclosure () -> JSONPath
    ) -> String? {
        guard let text = value.stringValue else {
            report(
                .error, .actionArguments, path().appending(key),
                "'\(key)' of \(spec.name) must be a string, not \(value.typeDescription)")
            return nil
        }
        if text.isEmpty {
            report(.error, .actionArguments, path().appending(key), "'\(key)' of \(spec.name) is empty")
            return nil
        }
        return text
    }

    private mutating func checkSettingsPage(_ spec: ActionSpec, at path: @autoclosure () -> JSONPath) {
        guard let value = spec.argumentValues["page"] else { return }
        let pages = BuiltinAction.settingsPages
        guard let page = value.stringValue else {
            report(
                .error, .actionArguments, path(), "'page' must be a string, not \(value.typeDescription)",
                hint: "use \(pages.joined(separator: " or "))")
            return
        }
        if !pages.contains(page) {
            report(
                .error, .actionArguments, path(), "'\(page)' is not a settings page",
                hint: Suggestion.didYouMean(page, among: pages) ?? "use \(pages.joined(separator: " or "))")
        }
    }

    private mutating func checkPermissionOptions(_ spec: ActionSpec, at path: @autoclosure () -> JSONPath) {
        guard let value = spec.argumentValues["options"] else { return }
        let known = BuiltinAction.permissionOptions
        guard let elements = value.arrayValue else {
            report(
                .error, .actionArguments, path(), "'options' must be an array of strings, not \(value.typeDescription)",
                hint: "write \"options\": [\"alert\", \"badge\", \"sound\"]")
            return
        }
        if elements.isEmpty {
            report(
                .error, .actionArguments, path(), "'options' is empty: the prompt would ask for nothing",
                hint: "leave 'options' out for alert, badge and sound")
        }
        var seen = Set<String>()
        for (index, element) in elements.enumerated() {
            guard let name = element.stringValue else {
                report(
                    .error, .actionArguments, path().appending(index),
                    "a permission option is a string, not \(element.typeDescription)")
                continue
            }
            guard known.contains(name) else {
                report(
                    .error, .actionArguments, path().appending(index), "'\(name)' is not a permission option",
                    hint: Suggestion.didYouMean(name, among: known) ?? "use \(known.joined(separator: ", "))")
                continue
            }
            if !seen.insert(name).inserted {
                report(.warning, .actionArguments, path().appending(index), "'\(name)' is listed twice")
            }
            if name == "critical_alert" {
                report(
                    .note, .actionArguments, path().appending(index),
                    "critical alerts need Apple's critical-alerts entitlement; without it the option is ignored")
            } else if name == "provisional" {
                report(
                    .note, .actionArguments, path().appending(index),
                    "provisional permission is granted quietly, without a prompt: the user sees nothing on this tap")
            }
        }
    }

    private mutating func checkShare(_ spec: ActionSpec, at path: @autoclosure () -> JSONPath) {
        let text = spec.argumentValues["text"]
        let url = spec.argumentValues["url"]
        guard text != nil || url != nil else {
            report(
                .error, .actionArguments, path(), "pushbutton.share needs something to share: 'text', 'url' or both",
                hint: "add \"url\": \"https://…\" or \"text\": \"…\"")
            return
        }
        if let text { _ = string(text, "text", of: spec, at: path()) }
        if let url, let link = string(url, "url", of: spec, at: path()) {
            let scheme = URLText(link).scheme
            if scheme == nil {
                report(
                    .error, .actionArguments, path().appending("url"),
                    "'\(link)' is not a URL (it has no scheme such as https:)")
            } else if scheme == .other {
                report(
                    .error, .actionArguments, path().appending("url"),
                    "pushbutton.share shares web links; '\(link)' is not http or https, so who receives it cannot open it",
                    hint: "share the https (universal) link of the content")
            }
        }
    }

    private mutating func checkTags(_ spec: ActionSpec, at path: @autoclosure () -> JSONPath) {
        let single = spec.argumentValues["tag"]
        let several = spec.argumentValues["tags"]
        switch (single, several) {
        case (nil, nil):
            report(
                .error, .actionArguments, path(), "\(spec.name) needs 'tag' (a string) or 'tags' (an array of strings)",
                hint: "add \"tag\": \"sports\"")
        case (.some, .some):
            report(
                .error, .actionArguments, path(), "\(spec.name) takes 'tag' or 'tags', not both",
                hint: "put every tag in 'tags'")
        case (let single?, nil):
            guard let tag = string(single, "tag", of: spec, at: path()) else { return }
            checkTag(tag, at: path().appending("tag"))
        case (nil, let several?):
            guard let elements = several.arrayValue else {
                report(
                    .error, .actionArguments, path().appending("tags"),
                    "'tags' must be an array of strings, not \(several.typeDescription)",
                    hint: "write \"tags\": [\"sports\", \"news\"], or use 'tag' for one")
                return
            }
            if elements.isEmpty {
                report(.error, .actionArguments, path().appending("tags"), "'tags' is empty: nothing would change")
            }
            var seen = Set<String>()
            for (index, element) in elements.enumerated() {
                guard let tag = element.stringValue else {
                    report(
                        .error, .invalidTag, path().appending("tags").appending(index),
                        "a tag is a string, not \(element.typeDescription)")
                    continue
                }
                checkTag(tag, at: path().appending("tags").appending(index))
                if !seen.insert(tag).inserted {
                    report(.warning, .invalidTag, path().appending("tags").appending(index), "'\(tag)' is listed twice")
                }
            }
        }
    }

    private mutating func checkTag(_ tag: String, at path: @autoclosure () -> JSONPath) {
        guard let problem = BuiltinAction.tagProblem(tag) else { return }
        report(
            .error, .invalidTag, path(), problem,
            hint:
                "use a name such as sports, news.local or plan:premium (at most \(BuiltinAction.maximumTagLength) characters)"
        )
    }

    /// A group's actions, each checked as if the button ran it directly (same situation, same button).
    private mutating func checkGroup(
        _ spec: ActionSpec, at path: @autoclosure () -> JSONPath, button: (name: String, traits: ButtonTraits)?,
        background: Bool,
        depth: Int
    ) {
        guard let value = spec.argumentValues["actions"] else {
            report(
                .error, .actionArguments, path(), "pushbutton.group needs an 'actions' argument: the actions it runs",
                hint: "add \"actions\": [{\"action\": \"pushbutton.copy\", \"args\": {\"text\": \"…\"}}, …]")
            return
        }
        guard let elements = value.arrayValue else {
            report(
                .error, .actionArguments, path(), "'actions' must be an array of actions, not \(value.typeDescription)")
            return
        }
        if depth > BuiltinAction.maximumGroupDepth {
            report(
                .error, .groupLimits, path(),
                "groups are nested \(depth) deep; at most \(BuiltinAction.maximumGroupDepth) are allowed",
                hint: "list these actions in the enclosing group instead: they run in the same order")
            return
        }
        if elements.isEmpty {
            report(
                .error, .groupLimits, path(), "the group is empty: it runs nothing",
                hint: "add actions, or remove the group")
        } else if elements.count == 1 {
            report(
                .note, .groupLimits, path(), "a group of one action runs just that action",
                hint: "use the action itself")
        }
        if elements.count > BuiltinAction.maximumGroupSize {
            report(
                .error, .groupLimits, path(),
                "the group holds \(elements.count) actions; at most \(BuiltinAction.maximumGroupSize) are allowed",
                hint: "keep the actions the tap needs, or move work to one pushbutton.callback")
        }
        for (index, element) in elements.enumerated() {
            let memberPath = path().appending(index)
            guard let object = element.objectValue else {
                report(
                    .error, .typeMismatch, memberPath,
                    "a group's action is {\"action\": …, \"args\": {…}}, not \(element.typeDescription)")
                continue
            }
            for key in object.keys where key != "action" && key != "args" {
                report(
                    .warning, .unknownKey, memberPath.appending(key), "an action has no member '\(key)'; it is ignored",
                    hint: Suggestion.didYouMean(key, among: ["action", "args"]))
            }
            guard let name = object["action"]?.stringValue, !name.isEmpty else {
                report(
                    .error, .missingField, memberPath.appending("action"), "the group's action has no 'action' name",
                    hint: "add \"action\": \"pushbutton.copy\" (or an app-defined name)")
                continue
            }
            var member = ActionSpec(name)
            if let arguments = object["args"] {
                guard let dictionary = arguments.objectValue else {
                    report(
                        .error, .typeMismatch, memberPath.appending("args"),
                        "'args' must be an object, not \(arguments.typeDescription)")
                    continue
                }
                member.argumentValues = ActionArguments(dictionary)
            }
            check(member, at: memberPath, button: button, background: background, depth: depth + 1)
        }
    }

    private mutating func checkURL(_ value: JSONValue?, at path: @autoclosure () -> JSONPath, webOnly: Bool) {
        guard let text = value?.stringValue, !text.isEmpty else {
            report(
                .error, .actionArguments, path(), "the action needs a 'url' string argument", hint: "add \"url\": \"…\""
            )
            return
        }
        guard let scheme = URLText(text).scheme else {
            report(.error, .actionArguments, path(), "'\(text)' is not a URL (it has no scheme such as https:)")
            return
        }
        if webOnly && scheme == .other {
            report(
                .error, .actionArguments, path(), "pushbutton.open_url opens web pages; '\(text)' is not http or https",
                hint: "use pushbutton.deeplink for app links")
        }
    }

    private mutating func checkCallback(
        _ spec: ActionSpec, at path: @autoclosure () -> JSONPath, button: (name: String, traits: ButtonTraits)?
    ) {
        let text = spec.argumentValues["url"]?.stringValue ?? ""
        let url = URLText(text)
        if url.scheme == .https || url.scheme == .http, url.host != .none {
            if url.scheme == .http && url.host != .loopback {
                report(
                    .warning, .actionArguments, path().appending("url"),
                    "the callback URL is plain http: the tap's data would cross the network unencrypted",
                    hint: "use https")
            }
        } else {
            report(
                .error, .actionArguments, path().appending("url"),
                "pushbutton.callback needs a 'url' argument with an http(s) URL of your backend",
                hint: "add \"url\": \"https://api.example.com/…\"")
        }
        // With only `url`, nothing else is looked up: each lookup hashes its key.
        guard spec.argumentValues.count > 1 else { return }
        if let method = spec.argumentValues["method"] {
            let allowed = ["GET", "POST", "PUT", "PATCH", "DELETE"]
            if !(method.stringValue.map { allowed.contains($0) } ?? false) {
                report(
                    .error, .actionArguments, path().appending("method"),
                    "'method' must be one of \(allowed.joined(separator: ", "))")
            }
        }
        if let includeReply = spec.argumentValues["include_reply"] {
            guard let flag = includeReply.boolValue else {
                report(
                    .error, .actionArguments, path().appending("include_reply"), "'include_reply' must be true or false"
                )
                return
            }
            if flag && button?.traits.hasTextInput != true {
                report(
                    .error, .replyWithoutTextInput, path().appending("include_reply"),
                    "the callback wants the typed reply, but "
                        + (button.map { "button '\($0.name)' has no text field" } ?? "only a button can carry a reply"),
                    hint: "make the button a text-input action in the manifest, or drop include_reply")
            }
        }
    }
}

extension ActionSpec.Builtin {
    /// A distinct small number per case, to index tables (the switch is exhaustive, so a new case must get one).
    fileprivate var ordinal: Int {
        switch self {
        case .deepLink: 0
        case .openURL: 1
        case .dismiss: 2
        case .callback: 3
        case .copy: 4
        case .rateApp: 5
        case .openSettings: 6
        case .requestPermission: 7
        case .share: 8
        case .addTag: 9
        case .removeTag: 10
        case .group: 11
        }
    }
}

/// What validation needs to know of one button.
private struct ButtonTraits {
    var runsInBackground: Bool
    var hasTextInput: Bool

    /// A button no manifest describes: nothing is reported that depends on how it runs or on a text field.
    static let unknown = ButtonTraits(runsInBackground: false, hasTextInput: true)
}

/// What validation needs to know of one category, built once per validator.
private final class CategoryIndex: Sendable {
    let identifier: String
    let buttons: [String: ButtonTraits]
    /// Button identifiers in display order, for messages and suggestions.
    let buttonOrder: [String]
    let reportsDismissal: Bool

    init(_ category: Category) {
        identifier = category.identifier
        buttonOrder = category.actions.map(\.identifier)
        buttons = Dictionary(
            category.actions.map {
                ($0.identifier, ButtonTraits(runsInBackground: $0.runsInBackground, hasTextInput: $0.textInput != nil))
            },
            uniquingKeysWith: { first, _ in first })
        reportsDismissal = category.options.contains(.customDismissAction)
    }
}
