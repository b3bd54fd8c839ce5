import Pushbutton

/// What iOS would show for a payload on a device with the manifest's categories registered: the text,
/// and the buttons of the expanded notification with the traits that change how they look.
public struct NotificationPreview: Sendable {
    /// One button, as the expanded notification shows it.
    public struct Button: Equatable, Sendable {
        /// The action's identifier.
        public var identifier: String
        /// The title in the preview's locale.
        public var title: String
        /// Drawn in red.
        public var isDestructive: Bool
        /// A foreground action: tapping it opens the app.
        public var opensApp: Bool
        /// The device must be unlocked to run it.
        public var requiresUnlock: Bool
        /// The SF Symbol or template image name, if the action has an icon.
        public var icon: String?
        /// For a text-input action: the send button's title and the field's placeholder.
        public var textField: (sendTitle: String, placeholder: String)?

        /// Equal when every trait is (the text field compared by its two titles).
        public static func == (lhs: Button, rhs: Button) -> Bool {
            lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.isDestructive == rhs.isDestructive
                && lhs.opensApp == rhs.opensApp && lhs.requiresUnlock == rhs.requiresUnlock && lhs.icon == rhs.icon
                && lhs.textField?.sendTitle == rhs.textField?.sendTitle
                && lhs.textField?.placeholder == rhs.textField?.placeholder
        }
    }

    /// The app's name, as the header shows it.
    public var appName: String
    /// The title line (or a localization key in angle brackets); nil when there is none or it is hidden.
    public var title: String?
    /// The subtitle line; nil when there is none or it is hidden.
    public var subtitle: String?
    /// The body text (or the hidden-previews placeholder).
    public var body: String
    /// The payload's category identifier.
    public var category: String?
    /// The buttons of the expanded notification, in order.
    public var buttons: [Button]
    /// Whether the lock-screen shows a placeholder instead of the content (Settings > Show Previews).
    public var previewsHidden: Bool
    /// Why no buttons show, or what iOS leaves out; nil when everything shows.
    public var note: String?
    /// The payload's media (`pushbutton.media`), shown above the expanded text; nil when there is none or previews
    /// are hidden.
    public var media: PayloadMedia?
    /// What the HTML preview loads for ``media``: its `https:` URL, or a local file as a `data:` URI (see
    /// ``embedMedia(allowingLocalFiles:)``); nil draws a frame with the file's name, as the SVG always does.
    public var mediaSource: String?
    /// The device's language, when it is a language identifier; it decides the text direction.
    public var language: LocaleIdentifier?
    /// Whether the device lays the notification out right to left (Arabic, Hebrew, …), as iOS mirrors its UI.
    public var isRightToLeft: Bool { language?.isRightToLeft == true }

    /// iOS shows at most ten actions of a category.
    public static let maximumButtons = 10

    /// The preview of `payload` on a device in `locale` with `categories` registered.
    public init(payload: Payload, categories: CategorySet, locale: String, appName: String, previewsHidden: Bool) {
        self.appName = appName
        self.language = LocaleIdentifier(locale)
        self.previewsHidden = previewsHidden
        let alert = payload.aps.alert
        var title: String?
        var subtitle: String?
        var body = alert?.body ?? ""
        if case .content(let content)? = alert {
            title = content.title ?? content.titleLocKey.map { "⟨\($0)⟩" }
            subtitle = content.subtitle ?? content.subtitleLocKey.map { "⟨\($0)⟩" }
            if content.body == nil, let key = content.locKey { body = "⟨\(key)⟩" }
        }
        category = payload.aps.category
        let registered = Self.category(named: payload.aps.category, in: categories, payload: payload)
        if previewsHidden {
            let options = registered?.options ?? []
            if !options.contains(.hiddenPreviewsShowTitle) { title = nil }
            if !options.contains(.hiddenPreviewsShowSubtitle) { subtitle = nil }
            body = registered?.hiddenPreviewsBodyPlaceholder?.resolved(for: locale) ?? "Notification"
        }
        self.title = title
        self.subtitle = subtitle
        self.body = body
        let actions = registered?.actions ?? []
        buttons = actions.prefix(Self.maximumButtons).map { Self.button($0, locale: locale) }
        note = Self.note(category: payload.aps.category, registered: registered, actionCount: actions.count)
        media = previewsHidden ? nil : payload.actions?.media
    }

    /// The registered category, or the one a payload's own buttons define.
    private static func category(named name: String?, in categories: CategorySet, payload: Payload) -> Category? {
        guard let name else { return nil }
        if let dynamic = payload.actions?.dynamicButtons, !dynamic.isEmpty, DynamicCategories.isDynamic(name) {
            return DynamicCategories.category(for: dynamic)
        }
        return categories.categories.first { $0.identifier == name }
    }

    private static func button(_ action: Action, locale: String) -> Button {
        Button(
            identifier: action.identifier, title: action.title.resolved(for: locale),
            isDestructive: action.options.contains(.destructive), opensApp: action.options.contains(.foreground),
            requiresUnlock: action.options.contains(.authenticationRequired), icon: action.icon?.name,
            textField: action.textInput.map {
                ($0.buttonTitle.resolved(for: locale), $0.placeholder.resolved(for: locale))
            })
    }

    private static func note(category: String?, registered: Category?, actionCount: Int) -> String? {
        guard let category else { return "No category: iOS shows no buttons." }
        guard registered != nil else {
            return "Category '\(category)' is not registered on the device: iOS shows no buttons, and no error."
        }
        if actionCount == 0 { return "Category '\(category)' has no actions." }
        if actionCount > maximumButtons {
            return "iOS shows only the first \(maximumButtons) of the category's \(actionCount) actions."
        }
        return nil
    }
}
