import Pushbutton

/// Which languages a set of titles is written in, so a command can say when the device language it was
/// asked for has none and the titles fall back to another one.
struct LocaleAvailability {
    /// The available locale identifiers, sorted, the default first.
    let locales: [String]
    let defaultLocale: String

    /// The manifest's declared locales, or, when it declares none, every locale its titles are translated into.
    init(_ manifest: Manifest) {
        defaultLocale = manifest.defaultLocale
        var found = Set(manifest.locales)
        if found.isEmpty {
            for category in manifest.categorySet().categories {
                for action in category.actions { found.formUnion(action.title.translations.keys) }
            }
        }
        found.insert(manifest.defaultLocale)
        locales = [manifest.defaultLocale] + found.subtracting([manifest.defaultLocale]).sorted()
    }

    /// A one-line warning when `locale` (or its language, `fr-CA` → `fr`) is not available, else `nil`.
    func warning(for locale: String, option: String = "--locale") -> String? {
        let language = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? locale
        let known = locales.contains { $0 == locale || $0 == language }
        guard !known else { return nil }
        return "pushbutton: warning: \(option) '\(locale)': no titles in that language, so they are shown in "
            + "\(defaultLocale) (available: \(locales.joined(separator: ", ")))"
    }
}
