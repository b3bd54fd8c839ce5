import Foundation
import Pushbutton

/// The app's string table for notification texts: what `pushbutton codegen` writes
/// (`<locale>.lproj/PushbuttonNotifications.strings` and `PushbuttonNotifications.xcstrings`), read at run time, so
/// a translation edited there is what the buttons show. A key the table lacks keeps the manifest's translations.
public struct StringTable: Sendable {
    /// The table `pushbutton codegen` writes unless `--table` names another.
    public static let defaultName = "PushbuttonNotifications"

    private let lookup: @Sendable (String) -> String?

    /// A table that answers with `lookup` (`nil` for a key it does not have).
    public init(lookup: @escaping @Sendable (String) -> String?) { self.lookup = lookup }

    /// The table `name` of `bundle` in `localization` (an `.lproj` folder's name: `fr`, `zh-Hans`), or in the
    /// bundle's own choice of language when `localization` is `nil` or the bundle does not have it. Xcode builds
    /// an `.xcstrings` catalog into per-language tables of the same name, so both kinds are read.
    public static func bundle(
        _ bundle: Bundle = .main, named name: String = defaultName, localization: String? = nil
    ) -> StringTable {
        let root = bundle.bundleURL
        let folder = localization.flatMap { bundle.url(forResource: $0, withExtension: "lproj") }
        return StringTable { key in
            // Bundles are looked up by URL on each call (Foundation caches them): `Bundle` is not `Sendable`.
            guard let table = folder.flatMap(Bundle.init(url:)) ?? Bundle(url: root) else { return nil }
            let missing = "\u{1}pushbutton: no such key\u{1}"
            let text = table.localizedString(forKey: key, value: missing, table: name)
            return text == missing ? nil : text
        }
    }

    /// The table's text for `key`, or `nil`.
    public func text(for key: String) -> String? { lookup(key) }

    /// `text` as the table has it: a localized text whose key the table has becomes that literal; anything else is
    /// unchanged.
    public func apply(to text: LocalizedText) -> LocalizedText {
        guard case .localized(let key, _) = text, !key.isEmpty, let found = lookup(key) else { return text }
        return .literal(found)
    }

    /// `category` with every title, text-input title and placeholder, hidden-previews placeholder and summary
    /// format taken from the table where it has them.
    public func apply(to category: Pushbutton.Category) -> Pushbutton.Category {
        var category = category
        category.actions = category.actions.map { action in
            var action = action
            action.title = apply(to: action.title)
            if var input = action.textInput {
                input.buttonTitle = apply(to: input.buttonTitle)
                input.placeholder = apply(to: input.placeholder)
                action.textInput = input
            }
            return action
        }
        category.hiddenPreviewsBodyPlaceholder = category.hiddenPreviewsBodyPlaceholder.map { apply(to: $0) }
        category.summaryFormat = category.summaryFormat.map { apply(to: $0) }
        return category
    }
}
