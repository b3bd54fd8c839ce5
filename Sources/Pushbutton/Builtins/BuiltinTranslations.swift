/// Titles of Pushbutton's built-in buttons, the reply button's "Send" and its "Message" placeholder, in
/// every language iOS offers as a system language.
///
/// The words live in one table per language (`BuiltinTranslations+Europe.swift`, `+EasternEurope`, `+Asia`),
/// keyed by the button's short name. A regional table (`fr-CA`, `es-419`, `pt-PT`, `zh-HK`) holds only the
/// words that differ from its language's; each locale of ``locales`` takes a title from the first table
/// along its ``LocaleIdentifier/fallbacks`` (`es-MX` → `es-419` → `es`), which is how a device falls back too.
enum BuiltinTranslations {
    /// Every locale built-in titles are given in: the languages iOS offers as a system language, with the
    /// regional variants it has (English for the US, UK, Australia and India share their words).
    static let locales = [
        "ar", "ca", "cs", "da", "de", "el", "en", "en-AU", "en-GB", "en-IN", "es", "es-419", "es-MX", "fi", "fr",
        "fr-CA", "he", "hi", "hr", "hu", "id", "it", "ja", "ko", "ms", "nb", "nl", "pl", "pt-BR", "pt-PT", "ro", "ru",
        "sk", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant", "zh-HK",
    ]

    /// The reply button's send button.
    static let send = titles(for: "send")
    /// The reply button's placeholder.
    static let messagePlaceholder = titles(for: "message")

    /// Button short name → its title in every locale of ``locales``.
    static let buttons: [String: [String: String]] = Dictionary(
        uniqueKeysWithValues: english.keys.filter { $0 != "send" && $0 != "message" }.map { ($0, titles(for: $0)) })

    /// Locale → short name → title: a table per language, and per region where its words differ.
    static let tables: [String: [String: String]] = [
        "en": english,
        "fr": french,
        "fr-CA": canadianFrench,
        "de": german,
        "es": spanish,
        "es-419": latinAmericanSpanish,
        "it": italian,
        "pt": brazilianPortuguese,
        "pt-PT": europeanPortuguese,
        "nl": dutch,
        "ca": catalan,
        "da": danish,
        "nb": norwegianBokmal,
        "sv": swedish,
        "fi": finnish,
        "pl": polish,
        "cs": czech,
        "sk": slovak,
        "hr": croatian,
        "hu": hungarian,
        "ro": romanian,
        "el": greek,
        "ru": russian,
        "uk": ukrainian,
        "tr": turkish,
        "ar": arabic,
        "he": hebrew,
        "hi": hindi,
        "th": thai,
        "vi": vietnamese,
        "id": indonesian,
        "ms": malay,
        "ja": japanese,
        "ko": korean,
        "zh-Hans": simplifiedChinese,
        "zh-Hant": traditionalChinese,
        "zh-HK": hongKongChinese,
    ]

    /// The table a locale's title for `key` comes from: the first along the locale's fallbacks that has it.
    static func sourceTable(for key: String, locale: String) -> String? {
        let fallbacks = LocaleIdentifier(locale)?.fallbacks ?? [locale]
        return fallbacks.first { tables[$0]?[key] != nil }
    }

    /// `key`'s title in every locale of ``locales`` (English where no table has it, which a test rules out).
    private static func titles(for key: String) -> [String: String] {
        var titles: [String: String] = [:]
        for locale in locales {
            titles[locale] = sourceTable(for: key, locale: locale).flatMap { tables[$0]?[key] } ?? english[key]
        }
        return titles
    }
}
