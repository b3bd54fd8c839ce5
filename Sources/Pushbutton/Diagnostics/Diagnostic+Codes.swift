extension Diagnostic.Code {
    // Reading JSON.
    /// The text is not valid JSON.
    public static let jsonSyntax: Self = "json-syntax"
    /// An object names the same member twice; the last one wins.
    public static let duplicateKey: Self = "duplicate-key"
    /// A member Pushbutton does not know (often a typo).
    public static let unknownKey: Self = "unknown-key"
    /// A value of the wrong JSON type.
    public static let typeMismatch: Self = "type-mismatch"
    /// A required member is absent.
    public static let missingField: Self = "missing-field"
    /// The manifest's `version` is not one this Pushbutton reads.
    public static let unsupportedVersion: Self = "unsupported-version"
    /// An option name that does not exist.
    public static let unknownOption: Self = "unknown-option"

    // Identifiers.
    public static let emptyIdentifier: Self = "empty-identifier"
    public static let duplicateCategory: Self = "duplicate-category"
    public static let duplicateAction: Self = "duplicate-action"
    /// The same action identifier with different titles or options in two categories.
    public static let inconsistentAction: Self = "inconsistent-action"
    /// An app identifier equal to the system's default or dismiss identifier.
    public static let systemIdentifier: Self = "system-identifier"
    /// An app identifier in Pushbutton's `pushbutton.` namespace.
    public static let reservedPrefix: Self = "reserved-prefix"
    public static let identifierWhitespace: Self = "identifier-whitespace"
    public static let identifierLength: Self = "identifier-length"
    /// Two sources define the same category identifier differently.
    public static let categoryCollision: Self = "category-collision"

    // Text and localization.
    public static let emptyTitle: Self = "empty-title"
    public static let longTitle: Self = "long-title"
    public static let missingTranslation: Self = "missing-translation"
    public static let undeclaredLocale: Self = "undeclared-locale"
    public static let invalidLocale: Self = "invalid-locale"
    public static let defaultLocale: Self = "default-locale"
    public static let emptyLocalization: Self = "empty-localization"

    // Actions and categories.
    public static let textInputButtonTitle: Self = "text-input-button-title"
    public static let tooManyActions: Self = "too-many-actions"
    public static let actionsHiddenInBanner: Self = "actions-hidden-in-banner"
    public static let noActions: Self = "no-actions"
    public static let destructiveForeground: Self = "destructive-foreground"
    public static let destructiveUnauthenticated: Self = "destructive-unauthenticated"
    public static let emptyIcon: Self = "empty-icon"
    public static let iconConflict: Self = "icon-conflict"
    public static let summaryFormat: Self = "summary-format"
    public static let deprecatedOption: Self = "deprecated-option"
    public static let emptyIntentIdentifier: Self = "empty-intent-identifier"

    // Built-ins.
    public static let unknownBuiltin: Self = "unknown-builtin"
    public static let duplicateBuiltin: Self = "duplicate-builtin"

    // The legacy (iOS 8/9) model.
    public static let legacyBothContexts: Self = "legacy-both-contexts"
    public static let legacyTextInputTitle: Self = "legacy-text-input-title"
    public static let legacyContextLimit: Self = "legacy-context-limit"
    /// Legacy and modern definitions mixed in one place.
    public static let legacyModernMixed: Self = "legacy-modern-mixed"
}
