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
    /// An identifier holds a control character (newline, NUL, ESC, …): an error.
    public static let identifierControlCharacter: Self = "identifier-control-character"
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

extension Diagnostic.Code {
    // Payloads.
    /// The payload has no `aps` dictionary.
    public static let missingAPS: Self = "missing-aps"
    /// `aps.category` names a category the manifest does not declare: the #1 cause of invisible buttons.
    public static let unknownCategory: Self = "unknown-category"
    /// Per-button actions or `action_args` without an `aps.category`.
    public static let noCategory: Self = "no-category"
    /// A per-button action names a button the category does not have.
    public static let unknownButton: Self = "unknown-button"
    /// A deep link or URL action on a button that runs in the background, where it would do nothing.
    public static let backgroundOpen: Self = "background-open"
    /// An action that needs the app on screen (copy, share, rate, settings, permission prompt) on a button that
    /// runs in the background or on a dismissal, where iOS would not show it.
    public static let backgroundInterface: Self = "background-ui"
    /// A tag that `pushbutton.add_tag` / `pushbutton.remove_tag` cannot use.
    public static let invalidTag: Self = "invalid-tag"
    /// A `pushbutton.group` that is empty, too big or nested too deep.
    public static let groupLimits: Self = "group-limits"
    /// A built-in action's arguments are missing or wrong.
    public static let actionArguments: Self = "action-arguments"
    /// A name in the `pushbutton.` namespace that is not a built-in action.
    public static let unknownBuiltinAction: Self = "unknown-builtin-action"
    /// A background push sent with priority 10.
    public static let backgroundPriority: Self = "background-priority"
    /// An action wants the typed reply but the button has no text field.
    public static let replyWithoutTextInput: Self = "reply-without-text-input"
    /// `action_args` is not an object.
    public static let malformedActionArguments: Self = "malformed-action-args"
    /// An alert push (or one with buttons) without anything to show.
    public static let missingAlert: Self = "missing-alert"
    /// Over the APNs size limit.
    public static let payloadTooLarge: Self = "payload-too-large"
    /// Dynamic buttons that break the rules (count, identifiers, category).
    public static let dynamicButtons: Self = "dynamic-buttons"
    /// `pushbutton.media` that the service extension cannot download or iOS cannot attach.
    public static let media: Self = "media"
    /// A number outside its allowed range (badge, relevance score, volume).
    public static let valueRange: Self = "value-range"
    /// A value APNs does not document (interruption level, push type, Live Activity event).
    public static let unknownValue: Self = "unknown-value"
    /// Dismiss actions on a category without `customDismissAction`: they never run.
    public static let dismissNotReported: Self = "dismiss-not-reported"
    /// The payload's content does not fit its push type.
    public static let pushTypeMismatch: Self = "push-type-mismatch"
}
