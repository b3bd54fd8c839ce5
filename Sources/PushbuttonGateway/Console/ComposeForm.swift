import Pushbutton

/// What the compose page's form holds, read from its fields: the category, locale and text, an action and its
/// arguments per button, the `action_args`, the text in other languages (`localized`), whom to send it to (an
/// audience built as a segment among them) and when. It becomes the same request body the API
/// takes (``NotificationDraft``), so the console validates and sends exactly as `POST /v1/…` does.
struct ComposeForm: Sendable {
    /// Whom the notification goes to.
    enum Audience: String, Sendable, CaseIterable {
        case token, user, tag, segment, list

        /// Whether sending creates a campaign (a segment reaches any number of devices; a list is uploaded).
        var isCampaign: Bool { self == .segment || self == .list }
    }

    var category: String
    var locale: String
    var title: String
    var subtitle: String
    var body: String
    /// An image, GIF, video or audio file's https URL for the service extension to attach (empty: none).
    var mediaURL = ""
    /// `image`, `gif`, `video` or `audio`.
    var mediaType = "image"
    /// Per button identifier: the chosen built-in action (empty: none) and its arguments as JSON text.
    var actions: [String: (action: String, arguments: String)]
    var actionArguments: String
    var audience: Audience
    var token: String
    var user: String
    var tag: String
    var recipients: FormFields.File?
    var builder = AudienceBuilder()
    var timing = ComposeTiming()
    /// Text in other languages: by language, `title`, `subtitle` and `body` as typed (`loc.<language>.<field>`).
    var localized: [String: [String: String]] = [:]
    /// The A/B experiment's variants and rule (none: a plain notification).
    var experiment = ComposeExperiment()

    /// The form's field names, which the page's diagnostics are attached to.
    enum Field {
        static func action(_ button: String) -> String { "action." + button }
        static func arguments(_ button: String) -> String { "args." + button }
        /// The slot beside one button's controls.
        static func button(_ button: String) -> String { "button." + button }
        /// A language's text field, or with `field` nil its tab's slot.
        static func localized(_ language: String, _ field: String? = nil) -> String {
            "loc." + language + (field.map { "." + $0 } ?? "")
        }
    }

    init(
        category: String, locale: String, title: String = "", subtitle: String = "", body: String = "",
        actions: [String: (action: String, arguments: String)] = [:], actionArguments: String = "",
        audience: Audience = .token, token: String = "", user: String = "", tag: String = "",
        recipients: FormFields.File? = nil
    ) {
        self.category = category
        self.locale = locale
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.actions = actions
        self.actionArguments = actionArguments
        self.audience = audience
        self.token = token
        self.user = user
        self.tag = tag
        self.recipients = recipients
    }

    /// Reads the posted fields; `category` and `locale` fall back to the given defaults.
    init(_ fields: FormFields, defaultCategory: String, defaultLocale: String) {
        self.init(category: fields.text("category") ?? defaultCategory, locale: fields.text("locale") ?? defaultLocale)
        title = fields["title"] ?? ""
        subtitle = fields["subtitle"] ?? ""
        body = fields["body"] ?? ""
        mediaURL = fields.text("media_url") ?? ""
        mediaType = fields.text("media_type") ?? "image"
        for (name, value) in fields.values where name.hasPrefix("action.") {
            let button = String(name.dropFirst("action.".count))
            actions[button] = (value, fields[Field.arguments(button)] ?? "")
        }
        actionArguments = fields["action_args"] ?? ""
        audience = fields.text("to").flatMap(Audience.init(rawValue:)) ?? .token
        token = fields.text("to_token") ?? ""
        user = fields.text("to_user") ?? ""
        tag = fields.text("to_tag") ?? ""
        if let file = fields.files["recipients"], !file.bytes.isEmpty { recipients = file }
        let intent = fields["intent"] ?? ""
        builder = AudienceBuilder(
            fields, adding: intent == "add_condition",
            removing: intent.hasPrefix("remove_condition.") ? Int(intent.dropFirst("remove_condition.".count)) : nil)
        timing = ComposeTiming(fields)
        for (name, value) in fields.values where name.hasPrefix("loc.") {
            let parts = name.split(separator: ".", maxSplits: 2).map(String.init)
            guard parts.count == 3, NotificationDraft.localizedKeys.contains(parts[2]) else { continue }
            localized[parts[1], default: [:]][parts[2]] = value
        }
        experiment = ComposeExperiment(
            fields,
            main: .init(name: "A", share: "", category: category, title: title, body: body, actions: actions),
            adding: intent == "add_variant",
            removing: intent.hasPrefix("remove_variant.") ? Int(intent.dropFirst("remove_variant.".count)) : nil)
    }

    /// The request body (without `to`), and the diagnostics of fields that are not valid JSON. `buttonsOf` names
    /// a category's buttons, for the experiment's other variants.
    func draftJSON(buttons: [String], buttonsOf: (String) -> [String] = { _ in [] }) -> (
        value: JSONValue, diagnostics: [Diagnostic]
    ) {
        var diagnostics: [Diagnostic] = []
        var object: [String: JSONValue] = ["category": .string(category)]
        if !title.isEmpty { object["title"] = .string(title) }
        if !subtitle.isEmpty { object["subtitle"] = .string(subtitle) }
        object["body"] = .string(body)
        if !mediaURL.isEmpty { object["media"] = .object(["url": .string(mediaURL), "type": .string(mediaType)]) }
        var specs: [String: JSONValue] = [:]
        for button in buttons {
            guard let (action, text) = actions[button], !action.isEmpty else { continue }
            var spec: [String: JSONValue] = ["action": .string(action)]
            if let arguments = Self.object(text, field: Field.button(button), what: "the arguments", &diagnostics) {
                spec["args"] = .object(arguments)
            }
            specs[button] = .array([.object(spec)])
        }
        if !specs.isEmpty { object["buttons"] = .object(specs) }
        if let arguments = Self.object(actionArguments, field: "action_args", what: "action_args", &diagnostics) {
            object["action_args"] = .object(arguments)
        }
        var languages: [String: JSONValue] = [:]
        for (language, texts) in localized {
            let given = texts.filter { !$0.value.isEmpty }.mapValues(JSONValue.string)
            if !given.isEmpty { languages[language] = .object(given) }
        }
        if !languages.isEmpty { object["localized"] = .object(languages) }
        timing.apply(to: &object, diagnostics: &diagnostics)
        experiment.apply(to: &object, buttonsOf: buttonsOf, diagnostics: &diagnostics)
        return (.object(object), diagnostics)
    }

    /// A JSON object typed into a text area; nil when blank or not an object (with a diagnostic at `field`).
    private static func object(
        _ text: String, field: String, what: String, _ diagnostics: inout [Diagnostic]
    ) -> [String: JSONValue]? {
        object(text, at: .root.appending(field), what: what, &diagnostics)
    }

    /// A JSON object typed into a text area; nil when blank or not an object (with a diagnostic at `path`).
    static func object(
        _ text: String, at path: JSONPath, what: String, _ diagnostics: inout [Diagnostic]
    ) -> [String: JSONValue]? {
        guard !text.allSatisfy(\.isWhitespace) else { return nil }
        do {
            guard let object = try JSONParser.parse(Array(text.utf8)).objectValue else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: path, "\(what) must be a JSON object",
                        hint: #"for example {"url": "https://api.example.com/like"}"#))
                return nil
            }
            return object
        } catch {
            diagnostics.append(
                Diagnostic(
                    .error, .jsonSyntax, at: path, "\(what) are not valid JSON: \(error.message)",
                    hint: #"write a JSON object, for example {"id": 42}"#))
            return nil
        }
    }

    /// The form field a request diagnostic is about: `title`, `button.like` (its action and arguments),
    /// `action_args`, `to`, `segment` (`to.segment…`), a builder row's `seg.N`, a language's `loc.fr.title`
    /// (or `loc.fr`), a timing field (`send_at`, `send_zone`, `throttle_per_minute`, `ignore_quiet_hours`),
    /// `recipients`, an experiment's `variants[1].title` (`variants[1].button.like`, `variants`) or rule field
    /// (`holdout`, `metric`…), or `form` for the rest.
    static func field(of path: JSONPath) -> String {
        let keys = path.components.compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        guard let first = keys.first else { return "form" }
        switch first {
        case "title", "subtitle", "body", "category", "action_args", "recipients", "locale", "media": return first
        case "to": return keys.count > 1 && keys[1] == "segment" ? "segment" : "to"
        case "send_at", "local_time": return ComposeTiming.Field.sendAt
        case ComposeTiming.Field.zone, ComposeTiming.Field.throttle, ComposeTiming.Field.ignoreQuietHours, "seg_saved":
            return first
        case "localized":
            guard keys.count > 1 else { return "form" }
            let field = keys.count > 2 && NotificationDraft.localizedKeys.contains(keys[2]) ? keys[2] : nil
            return Field.localized(keys[1], field)
        case "buttons": return keys.count > 1 ? Field.button(keys[1]) : "form"
        case "variants": return variantField(of: path)
        case _ where ComposeExperiment.Field.rule.contains(first): return first
        case _ where first.hasPrefix("button.") || first.hasPrefix("seg."): return first
        case "tap": return "form"
        default: return "form"
        }
    }

    /// A variant's field (`variants[1].share`, `variants[1].button.like`), the variant's slot for the rest of
    /// its fields, or `variants` for the list as a whole (the shares' sum, their count).
    private static func variantField(of path: JSONPath) -> String {
        let components = Array(path.components.dropFirst())
        guard case .index(let index)? = components.first else { return "variants" }
        let keys = components.dropFirst().compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        switch keys.first {
        case let key? where ["name", "share", "category", "title", "body"].contains(key):
            return ComposeExperiment.Field.variant(index, key)
        case "buttons"? where keys.count > 1: return ComposeExperiment.Field.button(index, keys[1])
        default: return ComposeExperiment.Field.variant(index)
        }
    }
}
