import Foundation
import Pushbutton
import PushbuttonStore

/// Reads a segment expression (`"to": {"segment": …}`, a saved segment, an audience count) into a ``Segment``,
/// each problem a diagnostic at its JSON path: `{"and": [...]}`, `{"or": [...]}`, `{"not": EXPR}`, or one leaf
/// of `tag`, `user`, `locale`, `app_version` (`">=2.1"`), `time_zone` (an IANA name), `last_seen_days`,
/// `tapped` (`{"category", "within_days"}`) or `saved` (a segment saved by name, read in place).
struct SegmentExpression {
    /// How deep `and`, `or`, `not` and `saved` may nest: deeper is refused (and a saved segment that names
    /// itself ends here).
    static let maximumDepth = 16
    /// Leaves one expression may have, saved segments included: each is a condition of the SQL.
    static let maximumLeaves = 500
    /// The most days `last_seen_days` and `within_days` look back.
    static let maximumDays = 36_500
    static let leafKeys = ["tag", "user", "locale", "app_version", "time_zone", "last_seen_days", "tapped", "saved"]
    static let keys = ["and", "or", "not"] + leafKeys

    /// A saved segment's expression by name (nil: none of that name).
    let saved: (String) -> JSONValue?
    private var leaves = 0

    init(saved: @escaping (String) -> JSONValue?) {
        self.saved = saved
    }

    /// The segment `value` at `path` expresses, or nil with errors in `diagnostics`.
    mutating func read(_ value: JSONValue, at path: JSONPath, diagnostics: inout [Diagnostic]) -> Segment? {
        let before = diagnostics.count
        let segment = read(value, at: path, depth: 1, diagnostics: &diagnostics)
        return diagnostics[before...].contains { $0.severity == .error } ? nil : segment
    }

    private mutating func read(_ value: JSONValue, at path: JSONPath, depth: Int, diagnostics: inout [Diagnostic])
        -> Segment?
    {
        func refuse(_ at: JSONPath, _ code: Diagnostic.Code, _ message: String, hint: String? = nil) -> Segment? {
            diagnostics.append(Diagnostic(.error, code, at: at, message, hint: hint))
            return nil
        }
        guard depth <= Self.maximumDepth else {
            return refuse(
                path, .valueRange, "the segment nests deeper than \(Self.maximumDepth) levels",
                hint:
                    "flatten it: 'and' and 'or' take any number of parts (a saved segment that names itself nests forever)"
            )
        }
        guard let object = value.objectValue, object.count == 1, let (key, member) = object.first else {
            return refuse(
                path, .typeMismatch,
                "a segment is an object with one member: 'and', 'or', 'not' or a leaf (\(Self.leafKeys.joined(separator: ", ")))",
                hint: #"for example {"and": [{"tag": "beta"}, {"locale": "fr"}]}"#)
        }
        let at = path.appending(key)
        switch key {
        case "and", "or":
            guard let parts = member.arrayValue else {
                return refuse(at, .typeMismatch, "'\(key)' takes an array of segments, not \(member.typeDescription)")
            }
            var segments: [Segment] = []
            for (index, part) in parts.enumerated() {
                if let segment = read(part, at: at.appending(index), depth: depth + 1, diagnostics: &diagnostics) {
                    segments.append(segment)
                }
            }
            return key == "and" ? .and(segments) : .or(segments)
        case "not":
            return read(member, at: at, depth: depth + 1, diagnostics: &diagnostics).map { .not($0) }
        case "saved":
            guard let name = member.stringValue, let expression = saved(name) else {
                return refuse(
                    at, "unknown-segment",
                    "no segment is saved as \(member.stringValue.map { "'\($0)'" } ?? member.typeDescription)",
                    hint: "save it first: PUT /v1/apps/{app}/segments/{name}")
            }
            var inner: [Diagnostic] = []
            guard let segment = read(expression, at: .root, depth: depth + 1, diagnostics: &inner),
                !inner.containsErrors
            else {
                return refuse(
                    at, "invalid-segment",
                    "the saved segment '\(name)' no longer reads: \(inner.first?.message ?? "invalid")")
            }
            return segment
        default:
            leaves += 1
            guard leaves <= Self.maximumLeaves else {
                return refuse(at, .valueRange, "more than \(Self.maximumLeaves) conditions in one segment")
            }
            return leaf(key, member, at: at, diagnostics: &diagnostics)
        }
    }

    private func leaf(_ key: String, _ member: JSONValue, at: JSONPath, diagnostics: inout [Diagnostic]) -> Segment? {
        func refuse(_ message: String, _ code: Diagnostic.Code = .typeMismatch, hint: String? = nil) -> Segment? {
            diagnostics.append(Diagnostic(.error, code, at: at, message, hint: hint))
            return nil
        }
        func text(limit: Int) -> String? {
            guard let text = member.stringValue, !text.isEmpty, text.utf8.count <= limit,
                !InputLimits.hasControlCharacter(text)
            else { return nil }
            return text
        }
        switch key {
        case "tag":
            return text(limit: InputLimits.tagBytes).map { .tag($0) }
                ?? refuse("'tag' must be a string of 1 to \(InputLimits.tagBytes) bytes")
        case "user":
            return text(limit: InputLimits.userIDBytes).map { .user($0) }
                ?? refuse("'user' must be a string of 1 to \(InputLimits.userIDBytes) bytes")
        case "locale":
            guard let text = member.stringValue, let locale = LocaleIdentifier(text) else {
                return refuse(
                    "'locale' must be a language or locale identifier ('fr', 'fr-CA', 'zh-Hant')", .invalidLocale)
            }
            return .locale(locale.description)
        case "app_version":
            guard let text = member.stringValue, let (comparison, version) = Self.versionCondition(text) else {
                return refuse(
                    "'app_version' must be a comparison and a version of 1 to 3 numbers: '>=2.1', '<3', '=2.0.1', '!=1.4'",
                    .valueRange)
            }
            return .appVersion(comparison, version: version)
        case "time_zone":
            guard let name = member.stringValue else {
                return refuse(#"'time_zone' must be an IANA time zone name such as "Europe/Paris""#)
            }
            guard TimeZoneName.isKnown(name) else {
                diagnostics.append(TimeZoneName.unknown(name, at: at))
                return nil
            }
            return .timeZone(name)
        case "last_seen_days":
            guard let days = Self.days(member) else {
                return refuse("'last_seen_days' must be a whole number of days, 1 to \(Self.maximumDays)", .valueRange)
            }
            return .lastSeenDays(days)
        case "tapped":
            guard let object = member.objectValue else {
                return refuse(#"'tapped' must be an object: {"category": "order", "within_days": 7}"#)
            }
            for name in object.keys.sorted() where !["category", "within_days"].contains(name) {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownKey, at: at.appending(name), "'\(name)' is not a field of 'tapped'",
                        hint: "fields: category, within_days"))
            }
            var category: String?
            if let value = object["category"] {
                guard let text = value.stringValue, !text.isEmpty else {
                    diagnostics.append(
                        Diagnostic(
                            .error, .typeMismatch, at: at.appending("category"), "'category' must be a non-empty string"
                        ))
                    return nil
                }
                category = text
            }
            guard let value = object["within_days"], let days = Self.days(value) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: at.appending("within_days"),
                        "'within_days' must be a whole number of days, 1 to \(Self.maximumDays)"))
                return nil
            }
            return .tapped(category: category, withinDays: days)
        default:
            return refuse(
                "'\(key)' is not a kind of segment", .unknownKey,
                hint: Suggestion.didYouMean(key, among: Self.keys) ?? "use \(Self.keys.joined(separator: ", "))")
        }
    }

    private static func days(_ value: JSONValue) -> Int? {
        guard let number = value.integerValue, number >= 1, number <= maximumDays else { return nil }
        return Int(number)
    }

    /// `>=2.1` (also `>`, `<=`, `<`, `=`, `==`, `!=`; a bare version is `=`) as a comparison and an
    /// ``AppVersionNumber``; nil when it is not one.
    static func versionCondition(_ text: String) -> (Segment.VersionComparison, Int64)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let operators: [(String, Segment.VersionComparison)] = [
            (">=", .greaterOrEqual), ("<=", .lessOrEqual), ("!=", .notEqual), ("==", .equal), (">", .greater),
            ("<", .less), ("=", .equal),
        ]
        var comparison = Segment.VersionComparison.equal
        var rest = Substring(trimmed)
        if let (prefix, found) = operators.first(where: { trimmed.hasPrefix($0.0) }) {
            comparison = found
            rest = rest.dropFirst(prefix.count)
        }
        guard let number = AppVersionNumber.parse(rest.trimmingCharacters(in: .whitespaces)) else { return nil }
        return (comparison, number)
    }
}
