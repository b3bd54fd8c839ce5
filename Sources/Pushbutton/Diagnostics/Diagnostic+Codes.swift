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
    /// An empty category or action identifier: iOS cannot match it, so it is an error.
    public static let emptyIdentifier: Self = "empty-identifier"
    /// Two categories with the same identifier; `setNotificationCategories` would keep only one of them.
    public static let duplicateCategory: Self = "duplicate-category"
    /// Two actions with the same identifier in one category: the app could not tell which button was tapped.
    public static let duplicateAction: Self = "duplicate-action"
    /// The same action identifier with different titles or options in two categories.
    public static let inconsistentAction: Self = "inconsistent-action"
    /// An app identifier equal to the system's default or dismiss identifier.
    public static let systemIdentifier: Self = "system-identifier"
    /// An app identifier in Pushbutton's `pushbutton.` namespace.
    public static let reservedPrefix: Self = "reserved-prefix"
    /// An identifier with white space (or, for a gateway app id, characters a URL path cannot carry as is).
    public static let identifierWhitespace: Self = "identifier-whitespace"
    /// An identifier holds a control character (newline, NUL, ESC, …): an error.
    public static let identifierControlCharacter: Self = "identifier-control-character"
    /// An identifier longer than 64 bytes: it travels in payloads limited to 4096 bytes.
    public static let identifierLength: Self = "identifier-length"
    /// Two sources define the same category identifier differently.
    public static let categoryCollision: Self = "category-collision"

    // Text and localization.
    /// A button or dynamic-button title that is empty, so the button would show no text.
    public static let emptyTitle: Self = "empty-title"
    /// A title longer than about 40 characters, which iOS truncates on the button (a note).
    public static let longTitle: Self = "long-title"
    /// Text that lacks a translation for a declared locale; users there see the default locale's text.
    public static let missingTranslation: Self = "missing-translation"
    /// A translation for a locale that the manifest's `locales` does not declare.
    public static let undeclaredLocale: Self = "undeclared-locale"
    /// A locale that is not a BCP 47 language tag (`en`, `pt-BR`, `zh-Hans`; a hyphen, not an underscore).
    public static let invalidLocale: Self = "invalid-locale"
    /// A `defaultLocale` that is not among the declared `locales`.
    public static let defaultLocale: Self = "default-locale"
    /// A localized text with an empty key or without any translation.
    public static let emptyLocalization: Self = "empty-localization"

    // Actions and categories.
    /// A text-input action without a send-button title; the localized "Send" is used instead.
    public static let textInputButtonTitle: Self = "text-input-button-title"
    /// A category with more than the 10 actions iOS ever shows: the rest are never shown.
    public static let tooManyActions: Self = "too-many-actions"
    /// A category with more than two actions: banners and other compact views show only the first two (a note).
    public static let actionsHiddenInBanner: Self = "actions-hidden-in-banner"
    /// Nothing to show a button for: a category without actions, a manifest without categories, or `action_args` for
    /// a category that has no buttons.
    public static let noActions: Self = "no-actions"
    /// A destructive action that also opens the app: legal, but users expect it to act in place (a note).
    public static let destructiveForeground: Self = "destructive-foreground"
    /// A destructive background action without `authenticationRequired`: anyone holding the locked phone can
    /// trigger it.
    public static let destructiveUnauthenticated: Self = "destructive-unauthenticated"
    /// An action icon without an image name (neither `systemImage` nor `templateImage`, or an empty one).
    public static let emptyIcon: Self = "empty-icon"
    /// An action icon that names both a system image and a template image; iOS takes one.
    public static let iconConflict: Self = "icon-conflict"
    /// A category summary format without a placeholder (`%u`) for the count of grouped notifications.
    public static let summaryFormat: Self = "summary-format"
    /// An option Apple deprecated, such as `allowAnnouncement` since iOS 15 (a note).
    public static let deprecatedOption: Self = "deprecated-option"
    /// An empty entry in a category's `intentIdentifiers`.
    public static let emptyIntentIdentifier: Self = "empty-intent-identifier"

    // Built-ins.
    /// A `builtins` entry that names none of Pushbutton's built-in categories.
    public static let unknownBuiltin: Self = "unknown-builtin"
    /// The same built-in category listed twice in `builtins`.
    public static let duplicateBuiltin: Self = "duplicate-builtin"

    // The legacy (iOS 8/9) model.
    /// A legacy category with both a default and a minimal action list: the modern API keeps one list, so the
    /// minimal one is dropped.
    public static let legacyBothContexts: Self = "legacy-both-contexts"
    /// A legacy text-input action without a send-button title; the localized "Send" is used.
    public static let legacyTextInputTitle: Self = "legacy-text-input-title"
    /// A legacy action list longer than its context showed on iOS 8/9 (4 in default, 2 in minimal; a note).
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
