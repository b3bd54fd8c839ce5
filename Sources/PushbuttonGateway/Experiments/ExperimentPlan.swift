import Foundation
import Pushbutton

/// A campaign's A/B experiment as its NDJSON header line gives it (issue 36):
///
/// ```json
/// {"variants": [{"name": "A", "share": 45, "category": "shop", "title": "…", "body": "…"},
///               {"name": "B", "share": 45, "category": "shop_2", "title": "…", "body": "…"}],
///  "holdout": 10, "control": "A", "default_variant": "A",
///  "test_share": 20, "decide_after": "PT2H", "metric": "button:add_to_cart"}
/// ```
///
/// 2 to 8 variants with unique names (1 to 32 characters, no control characters), shares and holdout in whole
/// percent adding up to 100 (holdout 0 to 50). A variant is a whole notification: the header's notification
/// fields with the variant's own on top. `control` (default: the first) is what the others are compared with;
/// `default_variant` (default: the control) is rolled out when no variant wins significantly. With
/// `test_share` (1 to 99), only that share is sent first; at `decide_after` (an ISO 8601 duration, 1 minute to
/// 30 days, from the campaign's creation) the rest gets the winner; `metric` is then required, and a
/// `button:<id>` metric must name a button of every variant. `planned_trials_per_variant` lets the decision
/// come early, once every variant has that many deliveries; without it the decision waits for `decide_after`.
struct ExperimentPlan: Sendable {
    var variants: [ExperimentVariant]
    var holdout: Int
    var control: String
    var defaultVariant: String
    var testShare: Int?
    /// Seconds after the campaign's creation.
    var decideAfter: Double?
    var metric: ExperimentMetric?
    var plannedTrials: Int?

    /// The header fields of an experiment (beside the notification's).
    static let keys = [
        "variants", "holdout", "control", "default_variant", "test_share", "decide_after", "metric",
        "planned_trials_per_variant",
    ]
    /// What a variant may give besides `name` and `share`: the notification's own fields.
    static let variantFields =
        ["payload", "localized"] + NotificationDraft.headerKeys + NotificationDraft.builtKeys

    /// Whether a campaign header asks for an experiment.
    static func isExperiment(_ value: JSONValue) -> Bool { value.objectValue?["variants"] != nil }

    /// The variant's index.
    func index(of name: String) -> Int? { variants.firstIndex { $0.name == name } }

    /// The assignment of this plan's experiment.
    func assignment(experiment: String) -> ExperimentAssignment {
        ExperimentAssignment(experiment: experiment, shares: variants.map(\.share), testShare: testShare)
    }

    /// Reads the experiment of a campaign header; diagnostics at the header's paths (`variants[1].category`).
    static func read(_ value: JSONValue, diagnostics: inout [Diagnostic]) -> ExperimentPlan? {
        guard let object = value.objectValue, let given = object["variants"] else { return nil }
        let before = diagnostics.count(where: { $0.severity == .error })
        let root = JSONPath.root
        func fail(_ path: JSONPath, _ code: Diagnostic.Code, _ message: String, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, code, at: path, message, hint: hint))
        }
        guard let list = given.arrayValue, (2...8).contains(list.count) else {
            fail(
                root.appending("variants"), .valueRange, "'variants' must be an array of 2 to 8 variants",
                hint: #"[{"name": "A", "share": 45, "title": …}, {"name": "B", "share": 45, …}]"#)
            return nil
        }
        // The header's notification fields, which each variant's own fields override.
        var shared = object
        for key in keys { shared[key] = nil }
        var variants: [ExperimentVariant] = []
        var total = 0
        for (index, element) in list.enumerated() {
            let path = root.appending("variants").appending(index)
            guard let fields = element.objectValue else {
                fail(path, .typeMismatch, "a variant is an object with 'name', 'share' and its notification's fields")
                continue
            }
            let name = fields["name"]?.stringValue ?? ""
            if name.isEmpty || name.count > 32 || InputLimits.hasControlCharacter(name) {
                fail(path.appending("name"), .valueRange, "'name' must be a string of 1 to 32 characters")
            } else if variants.contains(where: { $0.name == name }) {
                fail(path.appending("name"), .duplicateKey, "another variant is named '\(name)'")
            }
            var share = 0
            if let value = fields["share"]?.integerValue, (1...100).contains(value) {
                share = Int(value)
            } else {
                fail(path.appending("share"), .valueRange, "'share' must be a whole percent from 1 to 100")
            }
            total += share
            var merged = shared
            var own = Set<String>()
            for (key, value) in fields where key != "name" && key != "share" {
                guard variantFields.contains(key) else {
                    fail(
                        path.appending(key), .unknownKey, "'\(key)' is not a field of a variant",
                        hint: "a variant gives name, share and " + variantFields.joined(separator: ", "))
                    continue
                }
                merged[key] = value
                own.insert(key)
            }
            // A variant's whole payload replaces the header's built fields, and the other way round.
            if own.contains("payload") {
                for key in NotificationDraft.builtKeys where !own.contains(key) { merged[key] = nil }
            } else if !own.isDisjoint(with: NotificationDraft.builtKeys) {
                merged["payload"] = nil
            }
            var found: [Diagnostic] = []
            let draft = NotificationDraft.read(.object(merged), campaign: true, diagnostics: &found)
            diagnostics += found.map { locate($0, variant: index, fields: own) }
            if let draft { variants.append(ExperimentVariant(name: name, share: share, draft: draft, fields: own)) }
        }
        var holdout = 0
        if let value = object["holdout"] {
            if let number = value.integerValue, (0...50).contains(number) {
                holdout = Int(number)
            } else {
                fail(root.appending("holdout"), .valueRange, "'holdout' must be a whole percent from 0 to 50")
            }
        }
        if total + holdout != 100, variants.count == list.count {
            fail(
                root.appending("variants"), .valueRange,
                "the variants' shares (\(total)) and the holdout (\(holdout)) add up to \(total + holdout), not 100")
        }
        let names = variants.map(\.name)
        func variantName(_ key: String, default fallback: String?) -> String? {
            guard let value = object[key] else { return fallback }
            guard let text = value.stringValue, names.contains(text) else {
                fail(
                    root.appending(key), .unknownValue, "'\(key)' must name one of the variants",
                    hint: "variants: " + names.joined(separator: ", "))
                return nil
            }
            return text
        }
        let control = variantName("control", default: names.first)
        let defaultVariant = variantName("default_variant", default: control)
        var testShare: Int?
        if let value = object["test_share"] {
            if let number = value.integerValue, (1...99).contains(number) {
                testShare = Int(number)
            } else {
                fail(root.appending("test_share"), .valueRange, "'test_share' must be a whole percent from 1 to 99")
            }
        }
        var decideAfter: Double?
        if let value = object["decide_after"] {
            if let text = value.stringValue, let seconds = ISODuration.seconds(text), (60...2_592_000).contains(seconds)
            {
                decideAfter = seconds
            } else {
                fail(
                    root.appending("decide_after"), .valueRange,
                    "'decide_after' must be an ISO 8601 duration from 1 minute to 30 days",
                    hint: "for example PT2H, PT90M or P1D")
            }
        }
        var metric: ExperimentMetric?
        if let value = object["metric"] {
            metric = value.stringValue.flatMap(ExperimentMetric.init)
            if metric == nil {
                fail(
                    root.appending("metric"), .unknownValue,
                    "'metric' must be button:<identifier>, any_button, body or dismiss")
            }
        }
        if object["test_share"] != nil {
            if object["metric"] == nil {
                fail(
                    root.appending("metric"), .missingField,
                    "a test phase ('test_share') needs the 'metric' that decides it",
                    hint: "button:<identifier>, any_button, body or dismiss")
            }
            if object["decide_after"] == nil {
                fail(
                    root.appending("decide_after"), .missingField,
                    "a test phase ('test_share') needs 'decide_after'", hint: "for example PT2H")
            }
        } else {
            for key in ["decide_after", "planned_trials_per_variant"] where object[key] != nil {
                fail(root.appending(key), .inconsistentAction, "'\(key)' is only for a test phase ('test_share')")
            }
        }
        var plannedTrials: Int?
        if let value = object["planned_trials_per_variant"] {
            if let number = value.integerValue, (1...100_000_000).contains(number) {
                plannedTrials = Int(number)
            } else {
                fail(
                    root.appending("planned_trials_per_variant"), .valueRange,
                    "'planned_trials_per_variant' must be a whole number from 1 to 100,000,000")
            }
        }
        guard diagnostics.count(where: { $0.severity == .error }) == before, let control, let defaultVariant else {
            return nil
        }
        return ExperimentPlan(
            variants: variants, holdout: holdout, control: control, defaultVariant: defaultVariant,
            testShare: testShare, decideAfter: decideAfter, metric: metric, plannedTrials: plannedTrials)
    }

    /// A diagnostic about a variant's merged notification, at `variants[i].<field>` when the variant gave that
    /// field, else where the header has it.
    static func locate(_ diagnostic: Diagnostic, variant index: Int, fields: Set<String>) -> Diagnostic {
        var moved = diagnostic
        if case .key(let first) = diagnostic.path.components.first, fields.contains(first) {
            moved.path = JSONPath(
                components: [.key("variants"), .index(index)] + diagnostic.path.components)
        } else if diagnostic.path == .root {
            moved.path = JSONPath.root.appending("variants").appending(index)
        }
        return moved
    }

    /// The `button:` metric's check: every variant's category (or its dynamic buttons) has the button.
    func checkMetric(_ validator: PayloadValidator, diagnostics: inout [Diagnostic]) {
        guard case .button(let button)? = metric else { return }
        for (index, variant) in variants.enumerated() {
            let payload = variant.draft.payload.objectValue
            let category = payload?["aps"]?.objectValue?["category"]?.stringValue
            var buttons = Set(category.flatMap { validator.categories[$0] }?.actions.map(\.identifier) ?? [])
            for defined in payload?[Payload.actionsKey]?.objectValue?["define"]?.arrayValue ?? [] {
                if let id = defined.objectValue?["id"]?.stringValue { buttons.insert(id) }
            }
            guard !buttons.contains(button) else { continue }
            let path = JSONPath.root.appending("variants").appending(index).appending(
                variant.fields.contains("payload") ? "payload" : "category")
            diagnostics.append(
                Diagnostic(
                    .error, .unknownValue, at: path,
                    "the metric 'button:\(button)' needs a button '\(button)' in every variant; variant "
                        + "'\(variant.name)' (category '\(category ?? "none")') has "
                        + (buttons.isEmpty ? "no buttons" : buttons.sorted().joined(separator: ", ")),
                    hint: "compare variants that all have the button, or use any_button"))
        }
    }
}
