/// User-visible text: either a literal, or a localization key with a value per locale.
public enum LocalizedText: Sendable, Hashable {
    /// The same text in every language.
    case literal(String)
    /// A key for the app's string tables and its translations, by locale identifier (`en`, `fr`, `zh-Hans`).
    case localized(key: String, values: [String: String])

    /// The text for `locale`, looked up as iOS falls back from a locale it has no translation for (see
    /// ``LocaleIdentifier/fallbacks``): the locale itself, its regional parent (`es-MX` → `es-419`,
    /// `en-AU` → `en-GB`), the language in its script (`zh-HK` → `zh-Hant`), the language (`pt-PT` → `pt`,
    /// `fr_CA` → `fr`); then the same for `fallbackLocale`, then English, then any translation (in locale
    /// order), then the key itself. Translations keyed in another spelling (`pt_BR`, `zh-tw`, `no`) are found too.
    public func resolved(for locale: String? = nil, fallbackLocale: String? = nil) -> String {
        switch self {
        case .literal(let text):
            return text
        case .localized(let key, let values):
            var canonical: [String: String]?
            for group in Self.lookupOrder(locale: locale, fallbackLocale: fallbackLocale) {
                for candidate in group {
                    if let text = values[candidate] { return text }
                }
                // Keys in another spelling (`pt_BR`, `zh-hant`): compare canonical forms, after exact matches.
                let respelled = canonical ?? Self.respelledKeys(values)
                canonical = respelled
                for candidate in group {
                    if let text = respelled[candidate] { return text }
                }
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

    /// The identifiers to try, in three groups: the locale's fallbacks, the fallback locale's, then English's.
    private static func lookupOrder(locale: String?, fallbackLocale: String?) -> [[String]] {
        var seen = Set<String>()
        return [locale, fallbackLocale, "en"].compactMap { requested in
            guard let requested else { return nil }
            return ([requested] + (LocaleIdentifier(requested)?.fallbacks ?? [])).filter { seen.insert($0).inserted }
        }
    }

    /// The translations whose key is not spelled canonically, under the canonical spelling.
    private static func respelledKeys(_ values: [String: String]) -> [String: String] {
        var respelled: [String: String] = [:]
        for locale in values.keys.sorted() {
            guard let identifier = LocaleIdentifier(locale)?.description, identifier != locale else { continue }
            if respelled[identifier] == nil { respelled[identifier] = values[locale] }
        }
        return respelled
    }
}

extension LocalizedText: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .literal(value) }
}
