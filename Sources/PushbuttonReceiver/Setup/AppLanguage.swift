import Foundation

/// The language the app shows itself in, which Pushbutton shows button titles in too: the user's first preferred
/// language the app is localized into (as iOS picks `Bundle.main.preferredLocalizations`), so an English-only app
/// never shows French buttons to a French user.
public enum AppLanguage {
    /// The app's language: `Bundle.main.preferredLocalizations.first`, the choice iOS made for the app.
    public static var current: String? { Bundle.main.preferredLocalizations.first }

    /// The first of `preferences` (BCP 47 tags, most preferred first) that `localizations` has, matched exactly,
    /// then by language and script, then by language alone; else `development`, else the first localization.
    /// `Base` is not a language and is never chosen.
    public static func choose(
        from localizations: [String], preferences: [String], development: String? = nil
    ) -> String? {
        let available = localizations.filter { $0 != "Base" }
        func parts(_ tag: String) -> [String] {
            tag.replacingOccurrences(of: "_", with: "-").lowercased().split(separator: "-").map(String.init)
        }
        for preference in preferences {
            let wanted = parts(preference)
            if let exact = available.first(where: { parts($0) == wanted }) { return exact }
            if wanted.count > 1,
                let script = available.first(where: { parts($0).prefix(2) == wanted.prefix(2) })
            {
                return script
            }
            if let language = available.first(where: { parts($0).first == wanted.first }) { return language }
        }
        if let development, available.contains(development) { return development }
        return available.first
    }
}
