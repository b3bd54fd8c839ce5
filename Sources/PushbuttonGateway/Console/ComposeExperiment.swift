import Pushbutton
import PushbuttonSupport

/// The compose form's experiment (issue 36): its variants and its rule, which become the campaign header's
/// `variants`, `holdout`, `test_share`, `decide_after`, `metric`, `control`, `default_variant` and
/// `planned_trials_per_variant`, read by the API's own reader (``ExperimentPlan``).
///
/// The first variant is the notification the form composes above; each other one gives its own category, title,
/// body and buttons' actions (starting as a copy of the variant before it). The fields are named after the
/// header's paths (`variants[1].title`, `variants[1].action.like`), so a diagnostic at `variants[1].title`
/// lands beside its field. No variant: no experiment.
struct ComposeExperiment: Sendable {
    /// One variant as typed.
    struct Variant: Sendable {
        var name: String
        /// Percent of the audience, as typed.
        var share: String
        var category: String
        var title: String
        var body: String
        /// Per button identifier: the built-in action (empty: none) and its arguments as JSON text.
        var actions: [String: (action: String, arguments: String)]
    }

    /// The most variants the header takes.
    static let maximumVariants = 8

    var variants: [Variant] = []
    var holdout = ""
    var testShare = ""
    var decideAfter = ""
    var metric = ""
    var control = ""
    var defaultVariant = ""
    var plannedTrials = ""
    /// The preview tab chosen (a variant's index).
    var previewed = 0

    /// Whether the form runs an experiment.
    var isActive: Bool { !variants.isEmpty }

    /// The form fields' names: the header's paths.
    enum Field {
        static func variant(_ index: Int, _ field: String? = nil) -> String {
            "variants[\(index)]" + (field.map { "." + $0 } ?? "")
        }
        static func action(_ index: Int, _ button: String) -> String { variant(index, "action." + button) }
        static func arguments(_ index: Int, _ button: String) -> String { variant(index, "args." + button) }
        /// The slot beside a variant's button (its action and arguments).
        static func button(_ index: Int, _ button: String) -> String { variant(index, "button." + button) }
        /// The rule's fields, named as the header's keys.
        static let rule = [
            "holdout", "test_share", "decide_after", "metric", "control", "default_variant",
            "planned_trials_per_variant",
        ]
    }

    init() {}

    /// Reads the posted variants in their order. `adding` appends a copy of the last variant (the first press
    /// makes the form's notification variant A and its copy B) and spreads the shares evenly; `removing` drops
    /// a variant, and the experiment ends when fewer than two remain. `main` is the form's own notification.
    init(_ fields: FormFields, main: Variant, adding: Bool, removing: Int?) {
        var rows: [Int: Variant] = [:]
        for name in fields.values.keys where name.hasPrefix("variants[") && name.hasSuffix("].name") {
            let middle = name.dropFirst("variants[".count).dropLast("].name".count)
            guard let index = Int(middle), index >= 0, index < 64 else { continue }
            var variant =
                index == 0
                ? main
                : Variant(
                    name: "", share: "", category: fields.text(Field.variant(index, "category")) ?? main.category,
                    title: fields[Field.variant(index, "title")] ?? "",
                    body: fields[Field.variant(index, "body")] ?? "",
                    actions: [:])
            variant.name = fields.text(Field.variant(index, "name")) ?? ""
            variant.share = fields.text(Field.variant(index, "share")) ?? ""
            if index > 0 {
                let prefix = Field.variant(index, "action.")
                for (key, value) in fields.values where key.hasPrefix(prefix) {
                    let button = String(key.dropFirst(prefix.count))
                    variant.actions[button] = (value, fields[Field.arguments(index, button)] ?? "")
                }
            }
            rows[index] = variant
        }
        variants = rows.keys.sorted().filter { $0 != removing }.compactMap { rows[$0] }
        if let removing, removing == 0, !variants.isEmpty {
            // The form's notification stays variant A's: the next one's texts move up into it would be a surprise.
            variants[0] = Variant(
                name: variants[0].name, share: variants[0].share, category: main.category, title: main.title,
                body: main.body, actions: main.actions)
        }
        holdout = fields.text("holdout") ?? ""
        testShare = fields.text("test_share") ?? ""
        decideAfter = fields.text("decide_after") ?? ""
        metric = fields.text("metric") ?? ""
        control = fields.text("control") ?? ""
        defaultVariant = fields.text("default_variant") ?? ""
        plannedTrials = fields.text("planned_trials_per_variant") ?? ""
        previewed = fields.text("preview_variant").flatMap(Int.init) ?? 0
        if removing != nil && variants.count < 2 { variants = [] }
        if adding && variants.count < Self.maximumVariants {
            if variants.isEmpty {
                var first = main
                first.name = "A"
                variants = [first]
            }
            var copy = variants[variants.count - 1]
            copy.name = Self.nextName(after: variants.map(\.name))
            variants.append(copy)
            previewed = variants.count - 1
            spreadShares()
        }
        if previewed >= variants.count { previewed = 0 }
    }

    /// The first letter (then `V9`, `V10`…) no variant is named yet.
    static func nextName(after names: [String]) -> String {
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
        return letters.first { !names.contains($0) } ?? "V\(names.count + 1)"
    }

    /// Equal shares of what the holdout leaves, the remainder to the first variants.
    mutating func spreadShares() {
        let left = 100 - (Int(holdout).map { min(max($0, 0), 50) } ?? 0)
        let each = left / variants.count
        for index in variants.indices {
            variants[index].share = String(each + (index < left % variants.count ? 1 : 0))
        }
    }

    /// Adds the header's experiment fields to `object` (whose notification fields are variant A's). A number
    /// typed where one is due goes as a number, anything else as typed, for the API's reader to name.
    func apply(
        to object: inout [String: JSONValue], buttonsOf: (String) -> [String], diagnostics: inout [Diagnostic]
    ) {
        guard isActive else { return }
        func number(_ text: String) -> JSONValue { Int64(text).map(JSONValue.integer) ?? .string(text) }
        var list: [JSONValue] = []
        for (index, variant) in variants.enumerated() {
            var item: [String: JSONValue] = ["name": .string(variant.name), "share": number(variant.share)]
            if index > 0 {
                item["category"] = .string(variant.category)
                if !variant.title.isEmpty { item["title"] = .string(variant.title) }
                item["body"] = .string(variant.body)
                // Always its own buttons (maybe none): the first variant's belong to its own category.
                var specs: [String: JSONValue] = [:]
                for button in buttonsOf(variant.category) {
                    guard let (action, text) = variant.actions[button], !action.isEmpty else { continue }
                    var spec: [String: JSONValue] = ["action": .string(action)]
                    let path = JSONPath.root.appending("variants").appending(index).appending("buttons")
                        .appending(button)
                    if let arguments = ComposeForm.object(text, at: path, what: "the arguments", &diagnostics) {
                        spec["args"] = .object(arguments)
                    }
                    specs[button] = .array([.object(spec)])
                }
                item["buttons"] = .object(specs)
            }
            list.append(.object(item))
        }
        object["variants"] = .array(list)
        let typed = [
            ("holdout", holdout, true), ("test_share", testShare, true), ("decide_after", decideAfter, false),
            ("metric", metric, false), ("control", control, false), ("default_variant", defaultVariant, false),
            ("planned_trials_per_variant", plannedTrials, true),
        ]
        for (key, text, isNumber) in typed where !text.isEmpty {
            object[key] = isNumber ? number(text) : .string(text)
        }
    }

    /// The experiment's fieldset: the variants (A's notification is the form's; each other's own fields), the
    /// "Add a variant" and "Remove" buttons (form submits, so they work without the script) and the rule.
    func render(catalog: ConsoleCatalog, locale: String, slot: (String) -> HTML, described: (String) -> HTML) -> HTML {
        var html: HTML = """
            <fieldset id="experiment" aria-describedby="experiment-help">
            <legend>Experiment (A/B test)</legend>
            <p class="hint" id="experiment-help">Send variants of this notification to shares of the audience and \
            compare their taps. Variant A is the notification above; each other variant starts as a copy of the one \
            before it. An experiment is a campaign: send it to a recipient list.</p>
            \(slot("variants"))

            """
        for (index, variant) in variants.enumerated() {
            html += """
                <div class="variant" id="variant-\(index)">
                <h3>Variant \(variant.name)</h3>
                <label for="\(Field.variant(index, "name"))">Name</label>
                <input type="text" id="\(Field.variant(index, "name"))" name="\(Field.variant(index, "name"))" \
                value="\(variant.name)" maxlength="32"\(described(Field.variant(index, "name")))>
                \(slot(Field.variant(index, "name")))
                <label for="\(Field.variant(index, "share"))">Share of the audience (%)</label>
                <input type="number" id="\(Field.variant(index, "share"))" name="\(Field.variant(index, "share"))" \
                value="\(variant.share)" min="1" max="100" inputmode="numeric"\
                \(described(Field.variant(index, "share")))>
                \(slot(Field.variant(index, "share")))
                \(slot(Field.variant(index)))

                """
            if index == 0 {
                html += "<p class=\"hint\">Its notification is the one composed above.</p>\n"
                html += slot(Field.variant(0, "category"))
            } else {
                html += fields(index, variant, catalog: catalog, locale: locale, slot: slot, described: described)
            }
            html += """
                <button type="submit" name="intent" value="remove_variant.\(index)" class="remove" \
                formnovalidate>Remove variant \(variant.name)</button>
                </div>

                """
        }
        if variants.count < Self.maximumVariants {
            html += """
                <button type="submit" name="intent" value="add_variant" id="add-variant" formnovalidate>\
                Add a variant (a copy of the \(variants.isEmpty ? "notification" : "last variant"))</button>

                """
        }
        guard isActive else { return html + "</fieldset>\n" }
        let names = variants.map(\.name)
        func choice(_ key: String, _ label: String, chosen: String, none: String) -> HTML {
            var html: HTML = """
                <label for="\(key)">\(label)</label>
                <select id="\(key)" name="\(key)"\(described(key))>
                <option value="">\(none)</option>

                """
            for name in names {
                html += "<option value=\"\(name)\"\(name == chosen ? " selected" : "")>\(name)</option>\n"
            }
            return html + "</select>\n" + slot(key)
        }
        func number(_ key: String, _ label: String, _ value: String, placeholder: String) -> HTML {
            """
            <label for="\(key)">\(label)</label>
            <input type="text" id="\(key)" name="\(key)" value="\(value)" placeholder="\(placeholder)" \
            inputmode="numeric"\(described(key))>
            \(slot(key))

            """
        }
        let buttons = Set(variants.flatMap { catalog.category($0.category)?.actions.map(\.identifier) ?? [] })
        html += """
            \(number("holdout", "Holdout: sent nothing, the baseline (%)", holdout, placeholder: "0"))
            \(choice("control", "Control (compared with the others)", chosen: control, none: "The first variant"))
            \(choice("default_variant", "Default (rolled out when no variant wins)", chosen: defaultVariant, none: "The control"))
            \(number("test_share", "Test share: send the variants to this share first, the winner to the rest later (%)", testShare, placeholder: "none: everyone gets a variant"))
            <label for="decide_after">Decide after (an ISO 8601 duration)</label>
            <input type="text" id="decide_after" name="decide_after" value="\(decideAfter)" placeholder="PT2H"\
            \(described("decide_after"))>
            \(slot("decide_after"))
            <label for="metric">Metric that decides</label>
            <input type="text" id="metric" name="metric" value="\(metric)" list="metrics" \
            placeholder="button:like, any_button, body or dismiss"\(described("metric"))>
            <datalist id="metrics">

            """
        for metric in buttons.sorted().map({ "button:" + $0 }) + ["any_button", "body", "dismiss"] {
            html += "<option value=\"\(metric)\"></option>\n"
        }
        html += """
            </datalist>
            \(slot("metric"))
            \(number("planned_trials_per_variant", "Planned deliveries per variant (decide early once in)", plannedTrials, placeholder: "none: decide at the deadline"))
            </fieldset>

            """
        return html
    }

    /// A variant's own notification: its category, title, body and its category's buttons.
    private func fields(
        _ index: Int, _ variant: Variant, catalog: ConsoleCatalog, locale: String, slot: (String) -> HTML,
        described: (String) -> HTML
    ) -> HTML {
        let category = Field.variant(index, "category")
        var html: HTML = """
            <label for="\(category)">Category</label>
            <select id="\(category)" name="\(category)" class="variant-category"\(described(category))>

            """
        for option in catalog.categories {
            html +=
                "<option value=\"\(option.identifier)\"\(option.identifier == variant.category ? " selected" : "")>"
                + "\(option.identifier) (\(option.actions.count) button\(option.actions.count == 1 ? "" : "s"))</option>\n"
        }
        let title = Field.variant(index, "title")
        let body = Field.variant(index, "body")
        html += """
            </select>
            \(slot(category))
            <label for="\(title)">Title</label>
            <input type="text" id="\(title)" name="\(title)" value="\(variant.title)"\(described(title))>
            \(slot(title))
            <label for="\(body)">Body</label>
            <textarea id="\(body)" name="\(body)" rows="2" class="body"\(described(body))>\(variant.body)</textarea>
            \(slot(body))

            """
        for action in catalog.category(variant.category)?.actions ?? [] {
            let id = action.identifier
            let chosen = variant.actions[id]
            let field = Field.button(index, id)
            html += """
                <div class="button-row">
                <label for="\(Field.action(index, id))">\
                \(action.title.resolved(for: locale, fallbackLocale: catalog.defaultLocale)) (\(id)): action</label>
                \(ComposePage.builtinActions(
                    field: Field.action(index, id), chosen: chosen?.action, summaries: false,
                    described: described(field)))
                <label for="\(Field.arguments(index, id))">Its arguments (JSON object)</label>
                <textarea id="\(Field.arguments(index, id))" name="\(Field.arguments(index, id))" rows="2" \
                spellcheck="false"\(described(field))>\(chosen?.arguments ?? "")</textarea>
                \(slot(field))
                </div>

                """
        }
        return html
    }
}
