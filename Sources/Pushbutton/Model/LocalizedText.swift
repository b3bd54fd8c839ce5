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
            if let locale, let text = values[locale] { return text }  // the usual case, without parsing
            var respelled: [String: String]?
            func lookUp(_ requested: String) -> String? {
                if let text = values[requested] { return text }
                guard let identifier = LocaleIdentifier(requested) else { return nil }
                var found: String?
                identifier.forEachFallback { candidate in
                    found = values[candidate]
                    return found != nil
                }
                if let found { return found }
                // Keys in another spelling (`pt_BR`, `zh-hant`): compare canonical forms, after exact matches.
                let keys = respelled ?? Self.respelledKeys(values)
                respelled = keys
                guard !keys.isEmpty else { return nil }
                identifier.forEachFallback { candidate in
                    found = keys[candidate]
                    return found != nil
                }
                return found
            }
            if let locale, let text = lookUp(locale) { return text }
            if let fallbackLocale, let text = lookUp(fallbackLocale) { return text }
            if let text = lookUp("en") { return text }
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

    /// The translations whose key is not spelled canonically, under the canonical spelling.
    private static func respelledKeys(_ values: [String: String]) -> [String: String] {
        var respelled: [String: String] = [:]
        for locale in values.keys.filter({ !LocaleIdentifier.isCanonical($0) }).sorted() {
            guard let identifier = LocaleIdentifier(locale)?.description, identifier != locale else { continue }
            if respelled[identifier] == nil { respelled[identifier] = values[locale] }
        }
        return respelled
    }
}

extension LocalizedText: ExpressibleByStringLiteral {
    /// A string literal is a ``literal(_:)`` text, shown as is in every locale.
    public init(stringLiteral value: String) { self = .literal(value) }
}
