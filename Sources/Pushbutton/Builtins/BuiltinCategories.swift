/// Pushbutton's built-in categories: ready-made button sets an app opts into by identifier
/// (`pushbutton.yes_no`, `pushbutton.like_share`, …), with titles in every language iOS offers as a system
/// language (``locales``).
///
/// Buttons that open something (shop, buy, share, book, rate, search, …) run in the foreground;
/// quick answers (no, decline, like, follow, save, remind, …) run in the background. Background
/// buttons require an unlocked device by default, so a locked phone cannot like or delete on the
/// owner's behalf; pass `backgroundActionsRequireAuthentication: false` to turn that off app-wide.
public enum BuiltinCategories {
    /// How a built-in button runs.
    enum Mode {
        case foreground
        case background
        case backgroundDestructive
    }

    /// The category short names and their buttons, in catalog order.
    static let catalog: [(name: String, buttons: [(name: String, mode: Mode)])] = [
        ("yes_no", [("yes", .foreground), ("no", .background)]),
        ("yes_no_background", [("yes", .background), ("no", .background)]),
        ("accept_decline", [("accept", .foreground), ("decline", .background)]),
        ("accept_decline_background", [("accept", .background), ("decline", .background)]),
        ("shop_now", [("shop_now", .foreground)]),
        ("shop_now_share", [("shop_now", .foreground), ("share", .foreground)]),
        ("buy_now", [("buy_now", .foreground)]),
        ("buy_now_share", [("buy_now", .foreground), ("share", .foreground)]),
        ("share", [("share", .foreground)]),
        ("download", [("download", .foreground)]),
        ("download_share", [("download", .foreground), ("share", .foreground)]),
        ("follow", [("follow", .background)]),
        ("follow_share", [("follow", .background), ("share", .foreground)]),
        ("unfollow", [("unfollow", .background)]),
        ("unfollow_share", [("unfollow", .background), ("share", .foreground)]),
        ("follow_save", [("follow", .background), ("save", .background)]),
        ("save", [("save", .background)]),
        ("opt_in", [("opt_in", .background)]),
        ("opt_in_share", [("opt_in", .background), ("share", .foreground)]),
        ("opt_out", [("opt_out", .background)]),
        ("opt_out_share", [("opt_out", .background), ("share", .foreground)]),
        ("opt_in_remind", [("opt_in", .background), ("remind", .background)]),
        ("remind", [("remind", .background)]),
        ("remind_share", [("remind", .background), ("share", .foreground)]),
        ("like", [("like", .background)]),
        ("like_dislike", [("like", .background), ("dislike", .background)]),
        ("like_share", [("like", .background), ("share", .foreground)]),
        ("more_less_like", [("more_like", .background), ("less_like", .background)]),
        ("happy_sad", [("happy", .background), ("sad", .background)]),
        ("thumbs_up_down", [("thumbs_up", .background), ("thumbs_down", .background)]),
        ("add", [("add", .background)]),
        ("add_calendar_remind", [("add_calendar", .foreground), ("remind", .background)]),
        ("book_now", [("book_now", .foreground)]),
        ("tell_me_more", [("tell_me_more", .foreground)]),
        ("rate_now", [("rate_now", .foreground)]),
        ("rate_now_remind", [("rate_now", .foreground), ("remind", .background)]),
        ("search", [("search", .foreground)]),
        ("archive_delete", [("archive", .background), ("delete", .backgroundDestructive)]),
        ("reply", [("reply", .background)]),
    ]

    /// SF Symbols for the buttons that have an icon.
    static let icons: [String: String] = [
        "happy": "sun.max", "sad": "cloud.rain", "thumbs_up": "hand.thumbsup", "thumbs_down": "hand.thumbsdown",
        "like": "heart", "share": "square.and.arrow.up", "add": "plus", "add_calendar": "calendar.badge.plus",
        "search": "magnifyingglass", "rate_now": "star", "delete": "trash", "archive": "archivebox",
        "save": "bookmark", "download": "arrow.down.circle", "reply": "arrowshape.turn.up.left",
    ]

    /// The locales every built-in title is given in (41: `ar`, `ca`, …, `pt-BR`, `pt-PT`, …, `zh-Hant`, `zh-HK`):
    /// each title's ``LocalizedText/translations`` has an entry for each. Other locales resolve along
    /// ``LocaleIdentifier/fallbacks`` (`es-AR` → `es-419`, `zh-TW` → `zh-Hant`, `en-NZ` → `en-GB`).
    public static let locales: [String] = BuiltinTranslations.locales

    /// The identifiers of every built-in category, in catalog order.
    public static let identifiers: [String] = catalog.map { SystemIdentifiers.reservedPrefix + $0.name }

    /// Every built-in category.
    public static func all(backgroundActionsRequireAuthentication: Bool = true) -> [Category] {
        catalog.map { makeCategory($0.name, $0.buttons, backgroundActionsRequireAuthentication) }
    }

    /// The built-in category with this identifier (`pushbutton.yes_no`), or `nil`.
    public static func category(_ identifier: String, backgroundActionsRequireAuthentication: Bool = true)
        -> Category?
    {
        guard identifier.hasPrefix(SystemIdentifiers.reservedPrefix) else { return nil }
        let name = identifier.dropFirst(SystemIdentifiers.reservedPrefix.count)
        guard let entry = catalog.first(where: { $0.name == name }) else { return nil }
        return makeCategory(entry.name, entry.buttons, backgroundActionsRequireAuthentication)
    }

    private static func makeCategory(
        _ name: String, _ buttons: [(name: String, mode: Mode)], _ requireAuthentication: Bool
    ) -> Category {
        let actions = buttons.map { makeAction($0.name, $0.mode, requireAuthentication) }
        return Category(SystemIdentifiers.reservedPrefix + name, actions: actions)
    }

    private static func makeAction(_ name: String, _ mode: Mode, _ requireAuthentication: Bool) -> Action {
        var options: ActionOptions
        switch mode {
        case .foreground: options = .foreground
        case .background: options = []
        case .backgroundDestructive: options = .destructive
        }
        if mode != .foreground && requireAuthentication { options.insert(.authenticationRequired) }
        let identifier = SystemIdentifiers.reservedPrefix + name
        let title = LocalizedText.localized(key: identifier, values: BuiltinTranslations.buttons[name] ?? ["en": name])
        let icon = icons[name].map(ActionIcon.system)
        guard name == "reply" else { return Action(identifier, title: title, options: options, icon: icon) }
        return .textInput(
            identifier, title: title, buttonTitle: TextInput.defaultButtonTitle,
            placeholder: .localized(key: "pushbutton.message", values: BuiltinTranslations.messagePlaceholder),
            options: options, icon: icon)
    }
}
