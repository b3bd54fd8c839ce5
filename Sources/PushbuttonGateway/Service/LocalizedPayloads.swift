import PushbuttonStore

/// A notification's payload rendered in its default text and in each of its `"localized"` languages; each
/// device is given the one ``LocaleMatch`` chooses for its locale. Without languages it is the one payload,
/// and choosing costs nothing.
struct LocalizedPayloads {
    /// The payload with the default text.
    var base: [UInt8]
    /// The payload in each language, by ``LocaleIdentifier`` spelling.
    var languages: [String: [UInt8]] = [:]

    /// The payload for a device registered with `locale`.
    func payload(for locale: String?, match: inout LocaleMatch) -> [UInt8] {
        guard !languages.isEmpty, let language = match.language(for: locale) else { return base }
        return languages[language] ?? base
    }
}
