/// The single source of truth for an app's notification buttons: which categories and actions exist,
/// their translations, and which built-in categories the app uses.
///
/// The app registers from it and the server validates payloads against it. Its JSON format is
/// described in the DocC article "The manifest format"; ``parse(_:)-(Array<UInt8>)`` reads it with diagnostics.
public struct Manifest: Sendable, Hashable {
    /// The format version this Pushbutton reads and writes.
    public static let currentVersion = 1

    /// The format version the document declares (``currentVersion`` for manifests this Pushbutton writes).
    public var version: Int
    /// The locale used when a title has no translation for the user's locale.
    public var defaultLocale: String
    /// The locales every localized title must be translated into (empty: no requirement).
    public var locales: [String]
    /// Identifiers of the built-in categories the app uses (`pushbutton.yes_no`, …).
    public var builtins: [String]
    /// Whether background buttons of built-in categories require an unlocked device.
    public var backgroundActionsRequireAuthentication: Bool
    /// The app's own categories.
    public var categories: [Category]
    /// Categories written in the iOS 8/9 model, converted to modern ones when registered.
    public var legacyCategories: [LegacyCategory]

    /// Creates a manifest; the defaults are an empty English manifest whose built-in background buttons require
    /// authentication.
    public init(
        version: Int = Manifest.currentVersion, defaultLocale: String = "en", locales: [String] = [],
        builtins: [String] = [], backgroundActionsRequireAuthentication: Bool = true, categories: [Category] = [],
        legacyCategories: [LegacyCategory] = []
    ) {
        self.version = version
        self.defaultLocale = defaultLocale
        self.locales = locales
        self.builtins = builtins
        self.backgroundActionsRequireAuthentication = backgroundActionsRequireAuthentication
        self.categories = categories
        self.legacyCategories = legacyCategories
    }

    /// Every category the manifest declares, merged by identifier: its built-ins (lowest precedence),
    /// its own categories and its converted legacy categories. Unknown built-ins are skipped (lint reports them).
    public func categorySet(source: CategorySource = .manifest()) -> CategorySet {
        var set = CategorySet()
        let builtinCategories = builtins.compactMap {
            BuiltinCategories.category(
                $0, backgroundActionsRequireAuthentication: backgroundActionsRequireAuthentication)
        }
        set.merge(builtinCategories, from: .builtins)
        set.merge(categories, from: source)
        set.merge(legacyCategories.map { LegacyConversion.convert($0).0 }, from: source)
        return set
    }

    /// The semantic checks of the manifest (identifiers, titles, translations, limits, …), with index paths.
    public func lint() -> [Diagnostic] {
        ManifestLinter(manifest: self).run()
    }
}
