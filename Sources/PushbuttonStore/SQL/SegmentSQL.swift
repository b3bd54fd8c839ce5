import Foundation

/// A ``Segment`` as an SQL condition on the devices table (aliased `d`), the same text for SQLite and
/// PostgreSQL, every value bound as a parameter (nothing of the expression is written into the SQL but its
/// shape). Each leaf is true or false, never NULL (a device without a user or locale is simply not matched),
/// so `not` is the complement within the app's active devices.
struct SegmentSQL {
    /// The condition, with `?` placeholders.
    private(set) var condition = ""
    /// The values of the placeholders, in order.
    private(set) var values: [SQLValue] = []

    /// The app whose devices are selected (the subqueries of tags and taps select within it).
    private let app: SQLValue

    /// Compiles `segment` for `app`'s devices; `now` dates `last_seen_days` and `tapped`.
    init(_ segment: Segment, app: String, now: Date) {
        self.app = .text(app)
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
            // Not correlated: the database reads the tag's tokens once, by the key (app, tag, token), and
            // probes that set per device (a probe of the tag table per device was 6× a plain count).
            condition += "d.token IN (SELECT g.token FROM device_tags g WHERE g.app = ? AND g.tag = ?)"
            values += [app, .text(tag)]
        case .user(let user):
            condition += "(d.user_id IS NOT NULL AND d.user_id = ?)"
            values.append(.text(user))
        case .locale(let locale):
            // Registered as the device says it: `fr-CA` (preferred languages) or `fr_CA` (Locale identifiers).
            condition += "(d.locale IS NOT NULL AND ("
            for (index, form) in Self.chineseForms(of: locale).enumerated() {
                let dashed = form.replacingOccurrences(of: "_", with: "-")
                let underscored = form.replacingOccurrences(of: "-", with: "_")
                if index > 0 { condition += " OR " }
                condition +=
                    "d.locale = ? OR d.locale = ? OR substr(d.locale, 1, ?) = ? OR substr(d.locale, 1, ?) = ?"
                let prefix = Int64(dashed.utf8.count + 1)
                values += [
                    .text(dashed), .text(underscored), .integer(prefix), .text(dashed + "-"), .integer(prefix),
                    .text(underscored + "_"),
                ]
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
            // Seen: its registration (or another change it made), or a tap it reported.
            let since = SQLValue.real(now.timeIntervalSince1970 - Double(days) * 86_400)
            condition +=
                "(d.updated_at >= ? OR d.token IN (SELECT s.token FROM tap_events s WHERE s.app = ?"
                + " AND s.received_at >= ?))"
            values += [since, app, since]
        case .tapped(let category, let withinDays):
            let since = SQLValue.real(now.timeIntervalSince1970 - Double(withinDays) * 86_400)
            condition +=
                "d.token IN (SELECT s.token FROM tap_events s WHERE s.app = ?"
                + " AND s.response = 'button' AND s.received_at >= ?"
            values += [app, since]
            if let category {
                condition += " AND s.category = ?"
                values.append(.text(category))
            }
            condition += ")"
        }
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
