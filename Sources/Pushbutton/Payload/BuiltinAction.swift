/// What one of Pushbutton's built-in actions takes and where it may run: the table `pushbutton builtins
/// --actions` prints and the validator's list of known arguments.
public struct BuiltinAction: Sendable, Hashable {
    /// One argument of a built-in action.
    public struct Argument: Sendable, Hashable {
        /// The argument's key in the action's `args` object.
        public var name: String
        /// The JSON type, as a reader would say it: `string`, `boolean`, `array of strings`, `JSON`, ….
        public var type: String
        /// Whether the action is invalid without it (the validator reports `action-arguments`).
        public var isRequired: Bool
        /// What the argument does, in one phrase, for the printed table.
        public var summary: String

        /// Describes an argument `name` of JSON type `type` (as a reader would say it).
        public init(_ name: String, _ type: String, required: Bool = false, _ summary: String) {
            self.name = name
            self.type = type
            isRequired = required
            self.summary = summary
        }
    }

    /// Which built-in action this describes.
    public var builtin: ActionSpec.Builtin
    /// What the action does, in one sentence, for the printed table.
    public var summary: String
    /// Every argument the action accepts; any other key is reported as unknown.
    public var arguments: [Argument]
    /// Which arguments must be given: all of `isRequired`, and at least one of each of these sets.
    public var oneOf: [[String]]

    /// The action's name in payloads, e.g. `pushbutton.open_url`.
    public var name: String { builtin.rawValue }
    /// Whether it runs only when the app comes to the foreground (a foreground button or a body tap).
    public var needsForeground: Bool { builtin.needsForeground }
    /// The argument names, for "unknown argument" checks.
    public var argumentNames: [String] { arguments.map(\.name) }

    init(_ builtin: ActionSpec.Builtin, _ summary: String, _ arguments: [Argument] = [], oneOf: [[String]] = []) {
        self.builtin = builtin
        self.summary = summary
        self.arguments = arguments
        self.oneOf = oneOf
    }

    /// Every built-in action, in the order the documentation lists them.
    public static let all: [BuiltinAction] = [
        BuiltinAction(
            .deepLink, "Opens an in-app link.",
            [Argument("url", "string", required: true, "The link, e.g. chatter://m/42.")]),
        BuiltinAction(
            .openURL, "Opens a web page.", [Argument("url", "string", required: true, "An http or https URL.")]),
        BuiltinAction(.dismiss, "Removes the notification from the notification center."),
        BuiltinAction(
            .callback, "Calls the app's backend, durably (through the outbox).",
            [
                Argument("url", "string", required: true, "An https URL of the backend."),
                Argument("method", "string", "GET, POST (default), PUT, PATCH or DELETE."),
                Argument("body", "JSON", "The request body."),
                Argument("include_reply", "boolean", "Adds the typed reply as 'reply' (text-input buttons)."),
            ]),
        BuiltinAction(
            .copy, "Puts text on the pasteboard.", [Argument("text", "string", required: true, "The text to copy.")]),
        BuiltinAction(.rateApp, "Asks the system to show the App Store rating prompt (it may not)."),
        BuiltinAction(
            .openSettings, "Opens the app's page in the Settings app.",
            [Argument("page", "string", "app (default) or notifications.")]),
        BuiltinAction(
            .requestPermission, "Asks the user for notification permission.",
            [
                Argument(
                    "options", "array of strings",
                    "From \(permissionOptions.joined(separator: ", ")); default alert, badge, sound.")
            ]),
        BuiltinAction(
            .share, "Shows the share sheet.",
            [
                Argument("text", "string", "Text to share."),
                Argument("url", "string", "An http or https URL to share."),
            ],
            oneOf: [["text", "url"]]),
        BuiltinAction(
            .addTag, "Adds tags to the device (and to the gateway, when the app configures one).",
            [Argument("tag", "string", "One tag."), Argument("tags", "array of strings", "Several tags.")],
            oneOf: [["tag", "tags"]]),
        BuiltinAction(
            .removeTag, "Removes tags from the device (and from the gateway, when configured).",
            [Argument("tag", "string", "One tag."), Argument("tags", "array of strings", "Several tags.")],
            oneOf: [["tag", "tags"]]),
        BuiltinAction(
            .group, "Runs several actions in order.",
            [
                Argument(
                    "actions", "array of actions", required: true,
                    "Up to \(maximumGroupSize) {\"action\": …, \"args\": {…}}, groups nested at most \(maximumGroupDepth) deep."
                )
            ]),
    ]

    /// The permission options `pushbutton.request_permission` accepts, named as in `UNAuthorizationOptions`.
    public static let permissionOptions = [
        "alert", "badge", "sound", "provisional", "critical_alert", "car_play", "provides_app_notification_settings",
    ]
    /// The pages `pushbutton.open_settings` opens.
    public static let settingsPages = ["app", "notifications"]
    /// The most actions one group holds.
    public static let maximumGroupSize = 8
    /// How deep groups nest: a group at the top is depth 1; a group inside it, 2.
    public static let maximumGroupDepth = 3
    /// The longest tag, in characters.
    public static let maximumTagLength = 64

    /// What is wrong with `tag` as a tag name, or `nil` when it is a valid one: 1 to 64 characters, ASCII
    /// letters, digits and `_ - . : @` (so it is the same in every store, URL path and SQL column it lands in).
    public static func tagProblem(_ tag: String) -> String? {
        if tag.isEmpty { return "a tag cannot be empty" }
        if tag.count > maximumTagLength {
            return "'\(tag.prefix(20))…' is \(tag.count) characters; a tag has at most \(maximumTagLength)"
        }
        if let bad = tag.unicodeScalars.first(where: { !isTagScalar($0) }) {
            let shown = bad.properties.isWhitespace ? "whitespace" : "'\(bad)'"
            return "'\(tag)' contains \(shown); a tag has only letters a–z, A–Z, digits and _ - . : @"
        }
        return nil
    }

    private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", ":", "@": return true
        default: return false
        }
    }
}
