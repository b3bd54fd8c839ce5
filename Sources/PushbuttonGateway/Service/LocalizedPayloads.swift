import PushbuttonStore

/// A notification's payload rendered in its default text and in each of its `"localized"` languages; each
/// device is given the one ``LocaleMatch`` chooses for its locale. Without languages it is the one payload,
/// and choosing costs nothing.
struct LocalizedPayloads {
    /// The payload with the default text.
    var base: [UInt8]
    /// The payload in each language, by ``LocaleIdentifier`` spelling.
    var languages: [String: [UInt8]] = [:]

    /// The payload for a device registered with `locale`, and its language (`nil`: the default text), which
    /// the store keeps its payload under, shared with the other devices of that language.
    func chosen(for locale: String?, match: inout LocaleMatch) -> (payload: [UInt8], language: String?) {
        guard !languages.isEmpty, let language = match.language(for: locale), let payload = languages[language]
        else { return (base, nil) }
        return (payload, language)
    }
}
