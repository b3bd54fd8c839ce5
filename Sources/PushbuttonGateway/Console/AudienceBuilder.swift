import Pushbutton
import PushbuttonSupport

/// The compose form's audience builder: conditions (a tag, a language, an app version, last seen, tapped a
/// button, a user), each maybe excluded, combined with all (`and`) or any (`or`), and optionally a saved
/// segment; together the segment expression the API takes (`"to": {"segment": …}`), read by the API's own
/// reader (``SegmentExpression``). Row `N`'s fields are `seg.N.kind`, `seg.N.value`, `seg.N.days` and
/// `seg.N.not`; its diagnostics go to the slot `seg.N`.
struct AudienceBuilder: Sendable {
    /// One condition.
    struct Condition: Sendable, Hashable {
        var kind = Kind.tag
        /// The tag, language, version comparison, days, tapped category or user id.
        var value = ""
        /// `tapped`'s `within_days`.
        var days = ""
        /// Devices that do not match it.
        var excluded = false

        /// Whether nothing was typed: a blank row is left out.
        var isBlank: Bool { value.isEmpty && (kind != .tapped || days.isEmpty) }
    }

    /// The kinds of condition: the API's leaves.
    enum Kind: String, Sendable, CaseIterable {
        case tag, locale, appVersion = "app_version", lastSeenDays = "last_seen_days", tapped, user

        var label: String {
            switch self {
            case .tag: "Has the tag"
            case .locale: "Language is"
            case .appVersion: "App version"
            case .lastSeenDays: "Seen in the last N days"
            case .tapped: "Tapped a button of category"
            case .user: "User id is"
            }
        }

        var placeholder: String {
            switch self {
            case .tag: "beta"
            case .locale: "fr"
            case .appVersion: ">=2.1"
            case .lastSeenDays: "30"
            case .tapped: "order (any: leave empty)"
            case .user: "u-42"
            }
        }
    }

    /// The most condition rows a form keeps.
    static let maximumRows = 20

    var conditions = [Condition()]
    /// All conditions (`and`) or any (`or`).
    var matchAll = true
    /// A saved segment's name (empty: none), a condition like the others.
    var saved = ""

    init() {}

    /// Reads the posted rows in their order; `adding` one more blank row (the "Add a condition" button), or
    /// without row `removing` (its "Remove" button).
    init(_ fields: FormFields, adding: Bool, removing: Int? = nil) {
        var rows: [Int: Condition] = [:]
        for (name, value) in fields.values where name.hasPrefix("seg.") && name.hasSuffix(".kind") {
            let middle = name.dropFirst("seg.".count).dropLast(".kind".count)
            guard let index = Int(middle), index >= 0, index != removing else { continue }
            rows[index] = Condition(
                kind: Kind(rawValue: value) ?? .tag, value: fields.text("seg.\(index).value") ?? "",
                days: fields.text("seg.\(index).days") ?? "", excluded: fields["seg.\(index).not"] != nil)
        }
        conditions = rows.keys.sorted().prefix(Self.maximumRows).compactMap { rows[$0] }
        if adding && conditions.count < Self.maximumRows || conditions.isEmpty { conditions.append(Condition()) }
        matchAll = fields["seg_match"] != "any"
        saved = fields.text("seg_saved") ?? ""
    }

    /// Each filled row's leaf with its row number.
    var leaves: [(row: Int, leaf: JSONValue)] {
        conditions.enumerated().compactMap { row, condition in
            condition.isBlank ? nil : (row, Self.leaf(condition))
        }
    }

    /// The expression of a row: its leaf (a number where the API takes one), `not` when excluded.
    static func leaf(_ condition: Condition) -> JSONValue {
        let member: JSONValue
        switch condition.kind {
        case .lastSeenDays:
            member = Int64(condition.value).map(JSONValue.integer) ?? .string(condition.value)
        case .tapped:
            var tapped: [String: JSONValue] = [
                "within_days": Int64(condition.days).map(JSONValue.integer) ?? .string(condition.days)
            ]
            if !condition.value.isEmpty { tapped["category"] = .string(condition.value) }
            member = .object(tapped)
        default:
            member = .string(condition.value)
        }
        let leaf = JSONValue.object([condition.kind.rawValue: member])
        return condition.excluded ? .object(["not": leaf]) : leaf
    }

    /// The whole expression: one condition alone, several under `and` / `or`; nil when there is none.
    var expression: JSONValue? {
        var parts = leaves.map(\.leaf)
        if !saved.isEmpty { parts.insert(.object(["saved": .string(saved)]), at: 0) }
        guard parts.count > 1 else { return parts.first }
        return .object([matchAll ? "and" : "or": .array(parts)])
    }

    /// The slot of row `row`'s diagnostics.
    static func field(_ row: Int) -> String { "seg.\(row)" }

    /// The builder's fieldset: the saved segments to pick, all/any, the rows, and the live count (`devices`
    /// when counted by the server: the no-script "Count" button).
    func render(savedNames: [String], devices: Int?, slot: (String) -> HTML, described: (String) -> HTML) -> HTML {
        var html: HTML = """
            <fieldset id="audience" aria-describedby="audience-help">
            <legend>Audience (segment)</legend>
            <p class="hint" id="audience-help">The devices that match, counted as you build it. Sending to an \
            audience creates a campaign.</p>
            <label for="seg_saved">Saved segment</label>
            <select id="seg_saved" name="seg_saved"\(described("seg_saved"))>
            <option value="">None</option>

            """
        for name in savedNames {
            html += "<option value=\"\(name)\"\(name == saved ? " selected" : "")>\(name)</option>\n"
        }
        html += """
            </select>
            \(slot("seg_saved"))
            <div class="radios" role="radiogroup" aria-label="Combine the conditions">
            <label><input type="radio" name="seg_match" value="all" id="seg-match-all"\(matchAll ? " checked" : "")> \
            All of the conditions (and)</label>
            <label><input type="radio" name="seg_match" value="any" id="seg-match-any"\(matchAll ? "" : " checked")> \
            Any of them (or)</label>
            </div>
            <ol id="conditions" class="conditions">

            """
        for (row, condition) in conditions.enumerated() {
            html += Self.row(row, condition, slot: slot, described: described)
        }
        html += """
            </ol>
            <div class="actions-bar">
            <button type="submit" name="intent" value="add_condition" id="add-condition">Add a condition</button>
            <button type="submit" name="intent" value="count" id="count-audience">Count</button>
            </div>
            <p class="count-line">Reaches <output id="audience-count" aria-live="polite" \
            data-count="\(devices.map(String.init) ?? "")">\(devices.map(ConsolePage.count) ?? "—")</output> \
            active devices.</p>
            \(slot("segment"))
            </fieldset>

            """
        return html
    }

    /// One condition's controls, each labelled with its row number for screen readers.
    static func row(
        _ row: Int, _ condition: Condition, slot: (String) -> HTML, described: (String) -> HTML
    ) -> HTML {
        let number = row + 1
        let field = field(row)
        var html: HTML = """
            <li class="condition" data-row="\(row)">
            <label class="sr-only" for="seg.\(row).kind">Condition \(number): kind</label>
            <select id="seg.\(row).kind" name="seg.\(row).kind" class="kind"\(described(field))>

            """
        for kind in Kind.allCases {
            html +=
                "<option value=\"\(kind.rawValue)\" data-placeholder=\"\(kind.placeholder)\""
                + "\(kind == condition.kind ? " selected" : "")>\(kind.label)</option>\n"
        }
        html += """
            </select>
            <label class="sr-only" for="seg.\(row).value">Condition \(number): value</label>
            <input type="text" id="seg.\(row).value" name="seg.\(row).value" class="value" value="\(condition.value)" \
            placeholder="\(condition.kind.placeholder)" spellcheck="false" autocomplete="off"\(described(field))>
            <span class="days"><label for="seg.\(row).days">within days</label>
            <input type="number" id="seg.\(row).days" name="seg.\(row).days" value="\(condition.days)" min="1" \
            inputmode="numeric"\(described(field))></span>
            <label class="check"><input type="checkbox" id="seg.\(row).not" name="seg.\(row).not" \
            value="1"\(condition.excluded ? " checked" : "")> Exclude</label>
            <button type="submit" name="intent" value="remove_condition.\(row)" class="remove" \
            aria-label="Remove condition \(number)">Remove</button>
            \(slot(field))
            </li>

            """
        return html
    }
}
