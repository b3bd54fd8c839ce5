/// User-visible text: either a literal, or a localization key with a value per locale.
public enum LocalizedText: Sendable, Hashable {
    /// The same text in every language.
    case literal(String)
    /// A key for the app's string tables and its translations, by locale identifier (`en`, `fr`, `zh-Hans`).
    case localized(key: String, values: [String: String])

    /// The text for `locale`: an exact match, then the same language (`fr-CA` → `fr`), then
    /// `fallbackLocale`, then English, then any translation (in locale order), then the key itself.
    public func resolved(for locale: String? = nil, fallbackLocale: String? = nil) -> String {
        switch self {
        case .literal(let text):
            return text
        case .localized(let key, let values):
            for candidate in Self.lookupOrder(locale: locale, fallbackLocale: fallbackLocale) {
                if let text = values[candidate] { return text }
            }
            return values.keys.sorted().first.flatMap { values[$0] } ?? key
        }
    }

    /// The localization key, when there is one.
    public var key: String? {
        if case .localized(let key, _) = self { return key }
        return nil
    }

    /// The translations (empty for a literal).
    public var translations: [String: String] {
        if case .localized(_, let values) = self { return values }
        return [:]
    }

    private static func lookupOrder(locale: String?, fallbackLocale: String?) -> [String] {
        var order: [String] = []
        if let locale {
            order.append(locale)
            var parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
            while parts.count > 1 {
                parts.removeLast()
                order.append(parts.joined(separator: "-"))
            }
            if locale.hasPrefix("zh") { order.append(locale.contains("Hant") ? "zh-Hant" : "zh-Hans") }
        }
        if let fallbackLocale { order.append(fallbackLocale) }
        order.append("en")
        return order
    }
}

extension LocalizedText: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .literal(value) }
}
