import Foundation
import Pushbutton

/// What the compose page offers for one app: its manifest's categories (built-ins included) and the locales
/// its titles are written in, read once when the gateway starts.
struct ConsoleCatalog: Sendable {
    var categories: [Category]
    var defaultLocale: String
    /// The default locale first, then the manifest's other locales and those its titles are translated into.
    var locales: [String]
    /// The languages the app writes its text in: the default locale, then the manifest's `locales` (the compose
    /// page's language tabs; `locales` also holds every language a built-in's titles are translated into).
    var textLocales: [String]

    init(manifest: Manifest) {
        // The app's own categories first, in the manifest's order, then the built-ins it uses.
        let all = manifest.categorySet().categories
        let own = manifest.categories.map(\.identifier)
        categories =
            own.compactMap { identifier in all.first { $0.identifier == identifier } }
            + all.filter { !own.contains($0.identifier) }
        defaultLocale = manifest.defaultLocale
        var seen: Set<String> = [manifest.defaultLocale]
        var locales = [manifest.defaultLocale]
        let translated = categories.flatMap { category in category.actions.flatMap { $0.title.translations.keys } }
        for locale in manifest.locales + translated.sorted() where !seen.contains(locale) {
            seen.insert(locale)
            locales.append(locale)
        }
        self.locales = locales
        textLocales = [manifest.defaultLocale] + manifest.locales.filter { $0 != manifest.defaultLocale }
    }

    /// The catalog of the app's manifest file (the gateway checked it when it started); an unreadable one
    /// leaves the catalog empty.
    init(manifestPath: String) {
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: manifestPath))).map(Array.init) ?? []
        self.init(manifest: Manifest.parse(bytes).manifest ?? Manifest())
    }

    func category(_ identifier: String) -> Category? { categories.first { $0.identifier == identifier } }
}
