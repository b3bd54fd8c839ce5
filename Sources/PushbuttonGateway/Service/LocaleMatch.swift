import Pushbutton

/// Which of a notification's languages (`"localized"`'s keys) a device reads, as iOS chooses a localization:
/// its registered locale, then each less specific one (``LocaleIdentifier/fallbacks``: `de-CH` → `de`,
/// `en-AU` → `en-GB` → `en`, `zh-HK` → `zh-Hant`), else none (the notification's own text). Remembers each
/// locale it was asked about: a campaign's devices share a few.
struct LocaleMatch {
    /// The languages offered, as ``LocaleIdentifier`` spells them.
    let languages: Set<String>
    private var chosen: [String: String?] = [:]

    init(_ languages: some Sequence<String>) {
        self.languages = Set(languages)
    }

    /// The language a device registered with `locale` (`de-CH`, `fr_CA`; nil: none registered) gets, or nil
    /// for the default text.
    mutating func language(for locale: String?) -> String? {
        guard !languages.isEmpty, let locale else { return nil }
        if let known = chosen[locale] { return known }
        let match = LocaleIdentifier(locale)?.fallbacks.first(where: languages.contains)
        chosen[locale] = match
        return match
    }
}
