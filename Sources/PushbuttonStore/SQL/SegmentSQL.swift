import Foundation
import Pushbutton

/// A ``Segment`` as an SQL condition on the audience table (aliased `d`: migration 69's one narrow row per active
/// device), every value bound as a parameter (nothing of the expression is written into the SQL but its shape).
/// Each leaf is true or false, never NULL (a device without a user or locale is simply not matched), so `not` is
/// the complement within the app's active devices. Every leaf but a tapped category is a test of the device's own
/// row (its tag list, its last seen and last button tap), so a count is one pass over the audience rows with no
/// probe of another table per device.
struct SegmentSQL {
    /// The condition, with `?` placeholders.
    private(set) var condition = ""
    /// The values of the placeholders, in order.
    private(set) var values: [SQLValue] = []

    /// The app whose devices are selected (the subqueries of tags and taps select within it).
    private let app: SQLValue
    /// The store's SQL dialect (SQLite's `instr` is PostgreSQL's `strpos`; SQLite's rows have bits: AudienceBits).
    private let dialect: SQLDialect

    /// Compiles `segment` for `app`'s devices; `now` dates `last_seen_days` and `tapped`.
    init(_ segment: Segment, app: String, now: Date, dialect: SQLDialect) {
        self.app = .text(app)
        self.dialect = dialect
        append(segment, now: now)
    }

    private mutating func append(_ segment: Segment, now: Date) {
        switch segment {
        case .and(let parts), .or(let parts):
            let isAnd: Bool
            if case .and = segment { isAnd = true } else { isAnd = false }
            guard !parts.isEmpty else {
                condition += isAnd ? "1 = 1" : "1 = 0"
                return
            }
            condition += "("
            for (index, part) in parts.enumerated() {
                if index > 0 { condition += isAnd ? " AND " : " OR " }
                append(part, now: now)
            }
            condition += ")"
        case .not(let part):
            condition += "NOT ("
            append(part, now: now)
            condition += ")"
        case .tag(let tag):
            if let quoted = Self.plainJSONString(tag) {
                // In the device's own tag list (the compact JSON register and updateTags write, its `[` made a
                // `,` in the audience row): a quote right after `,` starts an element, and a tag with no quote or
                // backslash of its own, not starting with `,` or `]`, is then matched whole (plainJSONString).
                condition += "(" + bitsTest(of: tag)
                condition += dialect == .postgres ? "strpos(d.tags, ?) > 0)" : "instr(d.tags, ?) > 0)"
                values.append(.text("," + quoted))
            } else {
                // Any other tag by its index, a set read once and probed per device.
                condition += "d.token IN (SELECT g.token FROM device_tags g WHERE g.app = ? AND g.tag = ?)"
                values += [app, .text(tag)]
            }
        case .user(let user):
            condition += "(d.user_id IS NOT NULL AND d.user_id = ?)"
            values.append(.text(user))
        case .locale(let locale):
            // Registered as the device says it: `fr-CA` (preferred languages) or `fr_CA` (Locale identifiers).
            // One `IN` for the whole spellings and one per length of prefix (a comparison each was 16 for
            // `zh-Hant`, 4× the cost of a plain count).
            var whole: [String] = []
            var prefixes: [Int: [String]] = [:]
            for form in Self.chineseForms(of: locale) {
                let dashed = form.replacingOccurrences(of: "_", with: "-")
                let underscored = form.replacingOccurrences(of: "-", with: "_")
                for spelling in [dashed, underscored] where !whole.contains(spelling) { whole.append(spelling) }
                let length = dashed.utf8.count + 1
                for prefix in [dashed + "-", underscored + "_"] where !prefixes[length, default: []].contains(prefix) {
                    prefixes[length, default: []].append(prefix)
                }
            }
            // Every spelling shares the leaf's language (its first subtag), the audience row's own column.
            let language = Self.language(of: locale)
            condition += "(" + bitsTest(of: language) + "d.language = ? AND d.locale IS NOT NULL AND (d.locale IN ("
            condition += Self.placeholders(whole.count) + ")"
            values += [.text(language)] + whole.map { .text($0) }
            for (length, spellings) in prefixes.sorted(by: { $0.key < $1.key }) {
                condition += " OR substr(d.locale, 1, ?) IN (" + Self.placeholders(spellings.count) + ")"
                values += [.integer(Int64(length))] + spellings.map { .text($0) }
            }
            condition += "))"
        case .timeZone(let zone):
            condition += "(d.time_zone IS NOT NULL AND d.time_zone = ?)"
            values.append(.text(zone))
        case .appVersion(let comparison, let version):
            // Devices whose version is not a number to compare keep -1 (see AppVersionNumber).
            condition += "(d.version_number IS NOT NULL AND d.version_number >= 0 AND d.version_number "
            condition += Self.operatorText(comparison) + " ?)"
            values.append(.integer(version))
        case .lastSeenDays(let days):
            // Seen: its registration (or another change it made), or a tap it reported (its last, kept by the
            // tap log's trigger): the later of the two, the audience row's seen_at.
            condition += "d.seen_at >= ?"
            values.append(.real(now.timeIntervalSince1970 - Double(days) * 86_400))
        case .tapped(let category, let withinDays):
            let since = SQLValue.real(now.timeIntervalSince1970 - Double(withinDays) * 86_400)
            guard let category else {
                condition += "(d.last_button_at IS NOT NULL AND d.last_button_at >= ?)"
                values.append(since)
                return
            }
            // Only for a device whose last button tap is recent enough, the tap log: on SQLite the category's
            // tapping devices read once (tap_events_tapped) and probed; on PostgreSQL by the device's key, as such
            // a set outgrowing work_mem was read again per device (over a minute for a million devices).
            condition += "(d.last_button_at IS NOT NULL AND d.last_button_at >= ? AND "
            if dialect == .postgres {
                condition +=
                    "EXISTS (SELECT 1 FROM tap_events s WHERE s.app = d.app AND s.token = d.token"
                    + " AND s.received_at >= ? AND s.response = 'button' AND s.category = ?))"
                values += [since, since, .text(category)]
            } else {
                condition +=
                    "d.token IN (SELECT s.token FROM tap_events s WHERE s.app = ? AND s.response = 'button'"
                    + " AND s.category = ? AND s.received_at >= ?))"
                values += [since, app, .text(category), since]
            }
        }
    }

    /// On SQLite, a test of `text`'s bits in the audience row's Bloom filter of its tags and language
    /// (``AudienceBits``, migration 70) and an `AND`, to come before the exact test of a tag or language: the
    /// integer is cheap to read and compare, the tag list or language is read only where its bits are set.
    /// Otherwise (PostgreSQL, or a text with a NUL) nothing.
    private mutating func bitsTest(of text: String) -> String {
        guard dialect == .sqlite, let mask = AudienceBits.mask(of: text) else { return "" }
        values += [.integer(mask), .integer(mask)]
        return "(d.bits & ?) = ? AND "
    }

    /// The spellings a `locale` leaf matches: itself and, for Chinese only, what CLDR's likely subtags make the
    /// same (a script names the regions written in it, a region its script): `zh-Hant` also matches devices
    /// registered `zh-TW`, `zh-HK` or `zh-MO`; `zh-Hans` `zh-CN` and `zh-SG`; `zh-TW` also `zh-Hant-TW`.
    static func chineseForms(of locale: String) -> [String] {
        let parts = locale.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "zh" else { return [locale] }
        let subtag = parts[1]
        if let regions = scriptRegions[subtag.lowercased()] {
            return [locale] + regions.map { "zh-" + $0 }
        }
        let region = subtag.uppercased()
        if let script = scriptRegions.first(where: { $0.value.contains(region) })?.key {
            return [locale, "zh-" + (script == "hant" ? "Hant" : "Hans") + "-" + region]
        }
        return [locale]
    }

    /// `tag` as a JSON string (quoted) when a match of `,` and it in a compact JSON array of strings whose `[` is
    /// a `,` (the audience row's tags) can only be an element equal to it: nothing in it escaped (so no quote
    /// ends it early and no backslash makes its closing quote part of a longer string), not empty, and not
    /// starting with `,` or `]` (what follows an element's closing quote). Otherwise nil.
    static func plainJSONString(_ tag: String) -> String? {
        let quoted = String(decoding: JSONWriter.compact(.string(tag)), as: UTF8.self)
        guard quoted == "\"" + tag + "\"", let first = tag.first, first != ",", first != "]" else { return nil }
        return quoted
    }

    /// The first subtag of `locale` (before its first `-` or `_`), as migration 69 makes the audience row's
    /// `language` of the registered locale.
    static func language(of locale: String) -> String {
        // By scalars, as SQL's substr and instr count (a `-` before a combining mark ends it there too).
        String(
            String.UnicodeScalarView(
                locale.replacingOccurrences(of: "_", with: "-").unicodeScalars.prefix { $0 != "-" }))
    }

    /// `count` comma-separated placeholders.
    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The regions each Chinese script is the likely one of (CLDR likely subtags).
    private static let scriptRegions: [String: [String]] = ["hant": ["TW", "HK", "MO"], "hans": ["CN", "SG"]]

    /// The SQL of a comparison: one of a fixed set, never the request's text.
    private static func operatorText(_ comparison: Segment.VersionComparison) -> String {
        switch comparison {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}
