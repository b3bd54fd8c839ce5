/// One action a tap runs: a name and JSON arguments.
///
/// Names in Pushbutton's `pushbutton.` namespace are built-in (see the constants and ``BuiltinAction``); any
/// other name is an app-defined action, looked up in the app's action registry.
public struct ActionSpec: Sendable, Hashable {
    /// Opens an in-app deep link. Arguments: `url` (string). Foreground only.
    public static let deepLink = "pushbutton.deeplink"
    /// Opens a web URL. Arguments: `url` (an `http` or `https` string). Foreground only.
    public static let openURL = "pushbutton.open_url"
    /// Removes the notification. No arguments.
    public static let dismiss = "pushbutton.dismiss"
    /// Calls the app's backend in the background. Arguments: `url` (https), optional `method`
    /// (`POST` by default), optional `body` (any JSON), optional `include_reply` (send the typed text).
    public static let callback = "pushbutton.callback"
    /// Puts text on the general pasteboard. Arguments: `text` (string). Foreground only: iOS refuses
    /// pasteboard writes from an app in the background.
    public static let copy = "pushbutton.copy"
    /// Asks the system to show its App Store rating prompt (which it may decline to). No arguments. Foreground only.
    public static let rateApp = "pushbutton.rate_app"
    /// Opens the app's page in the Settings app. Arguments: optional `page`, `app` (default) or `notifications`.
    /// Foreground only.
    public static let openSettings = "pushbutton.open_settings"
    /// Asks the user for notification permission. Arguments: optional `options`, an array of
    /// ``BuiltinAction/permissionOptions`` (default `alert`, `badge`, `sound`). Foreground only.
    public static let requestPermission = "pushbutton.request_permission"
    /// Shows the share sheet. Arguments: `text` and/or `url` (http or https). Foreground only.
    public static let share = "pushbutton.share"
    /// Adds tags to the device: the receiver's tag store, which forwards them to the gateway when the app configures one.
    /// Arguments: `tag` (string) or `tags` (array of strings), see ``BuiltinAction/tagProblem(_:)``.
    public static let addTag = "pushbutton.add_tag"
    /// Removes tags from the device. Arguments as ``addTag``.
    public static let removeTag = "pushbutton.remove_tag"
    /// Runs several actions in order. Arguments: `actions`, an array of `{"action": …, "args": {…}}`, at most
    /// ``BuiltinAction/maximumGroupSize`` of them, nested at most ``BuiltinAction/maximumGroupDepth`` deep.
    public static let group = "pushbutton.group"

    /// Every built-in action name.
    public static let builtinNames = BuiltinAction.all.map(\.name)

    /// The action's name: a `pushbutton.` built-in (see the constants above) or an app-defined action.
    public var name: String
    /// The arguments, one or two of them stored inline (see ``ActionArguments``); `==` and hashing are the
    /// members'.
    public var argumentValues: ActionArguments

    /// The arguments as a dictionary (made from ``argumentValues`` when read).
    public var arguments: [String: JSONValue] {
        get { argumentValues.dictionary }
        set { argumentValues = ActionArguments(newValue) }
    }

    /// The action `name` with the members of `arguments`.
    @_disfavoredOverload
    public init(_ name: String, arguments: [String: JSONValue] = [:]) {
        self.name = name
        self.argumentValues = ActionArguments(arguments)
    }

    /// The action `name` with `arguments`; a literal (`["url": .string(link)]`) is stored without a dictionary.
    @inlinable
    public init(_ name: String, arguments: ActionArguments = ActionArguments()) {
        self.name = name
        self.argumentValues = arguments
    }

    /// Pushbutton's built-in actions.
    public enum Builtin: String, Sendable, Hashable, CaseIterable {
        case deepLink = "pushbutton.deeplink"
        case openURL = "pushbutton.open_url"
        case dismiss = "pushbutton.dismiss"
        case callback = "pushbutton.callback"
        case copy = "pushbutton.copy"
        case rateApp = "pushbutton.rate_app"
        case openSettings = "pushbutton.open_settings"
        case requestPermission = "pushbutton.request_permission"
        case share = "pushbutton.share"
        case addTag = "pushbutton.add_tag"
        case removeTag = "pushbutton.remove_tag"
        case group = "pushbutton.group"

        /// Whether the action needs the app on screen: it opens something or shows system UI. On a background
        /// button or a dismissal it would silently do nothing (or, for the pasteboard, be refused by iOS).
        public var needsForeground: Bool {
            switch self {
            case .deepLink, .openURL, .copy, .rateApp, .openSettings, .requestPermission, .share: return true
            case .dismiss, .callback, .addTag, .removeTag, .group: return false
            }
        }

        /// The action's description: arguments, situations, what it does.
        public var info: BuiltinAction {
            // `BuiltinAction.all` lists every case (a test checks it); the fallback only keeps this total.
            BuiltinAction.all.first { $0.builtin == self } ?? BuiltinAction(self, "")
        }
    }

    /// Which built-in action the name is (spelled exactly), if any. Compared as bytes: validation asks for
    /// every action of every payload, and these names are too long for Swift's small-string fast path.
    public var builtin: Builtin? {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count >= 15, bytes.count <= 29, Self.matches(bytes, "pushbutton.", at: 0) else { return nil }
            // The length picks the few candidates; one comparison of the rest decides.
            switch bytes.count {
            case 15: return Self.matches(bytes, "copy", at: 11) ? .copy : nil
            case 16:
                if Self.matches(bytes, "share", at: 11) { return .share }
                return Self.matches(bytes, "group", at: 11) ? .group : nil
            case 18:
                if Self.matches(bytes, "dismiss", at: 11) { return .dismiss }
                return Self.matches(bytes, "add_tag", at: 11) ? .addTag : nil
            case 19:
                if Self.matches(bytes, "callback", at: 11) { return .callback }
                if Self.matches(bytes, "deeplink", at: 11) { return .deepLink }
                if Self.matches(bytes, "open_url", at: 11) { return .openURL }
                return Self.matches(bytes, "rate_app", at: 11) ? .rateApp : nil
            case 21: return Self.matches(bytes, "remove_tag", at: 11) ? .removeTag : nil
            case 24: return Self.matches(bytes, "open_settings", at: 11) ? .openSettings : nil
            case 29: return Self.matches(bytes, "request_permission", at: 11) ? .requestPermission : nil
            default: return nil
            }
        }
    }

    /// Whether `bytes` hold exactly `expected` from `offset` to their end or, for the prefix, at `offset`.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ expected: StaticString, at offset: Int) -> Bool {
        expected.withUTF8Buffer { expected in
            let isSuffix = offset > 0
            guard isSuffix ? bytes.count - offset == expected.count : bytes.count >= expected.count else {
                return false
            }
            for index in 0..<expected.count where bytes[offset + index] != expected[index] { return false }
            return true
        }
    }

    /// Whether the name is one of Pushbutton's built-in actions.
    public var isBuiltin: Bool { builtin != nil }

    /// Whether this action needs the app in the foreground (it opens something or shows system UI). A group
    /// needs it when any action it holds does.
    public var needsForeground: Bool {
        guard let kind = builtin else { return false }
        if kind == .group {
            return (try? groupMembers())?.contains { $0.needsForeground } ?? false
        }
        return kind.needsForeground
    }

    /// The actions of a `pushbutton.group`, read from its `actions` argument. Throws a message saying what is
    /// wrong when the argument is missing or malformed (the validator reports the same with paths and hints).
    public func groupMembers() throws(GroupError) -> [ActionSpec] {
        guard let value = argumentValues["actions"] else { throw GroupError(.missingActions, "no 'actions' argument") }
        guard let elements = value.arrayValue else {
            throw GroupError(.actionsNotAnArray, "'actions' is \(value.typeDescription), not an array of actions")
        }
        return try elements.enumerated().map { (index, element) throws(GroupError) -> ActionSpec in
            guard let object = element.objectValue, let name = object["action"]?.stringValue else {
                throw GroupError(
                    .memberNotAnAction, "actions[\(index)] is not an action ({\"action\": …, \"args\": {…}})")
            }
            guard let arguments = object["args"] else { return ActionSpec(name) }
            guard let dictionary = arguments.objectValue else {
                throw GroupError(
                    .argumentsNotAnObject, "actions[\(index)].args is \(arguments.typeDescription), not an object")
            }
            return ActionSpec(name, arguments: dictionary)
        }
    }

    /// Why a group's `actions` cannot be read: a ``code`` to branch on, and a message that says what to fix.
    public struct GroupError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong. Extensible: compare with the static members, keep a default case.
        public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The code's name, stable across releases.
            public var rawValue: String
            /// The code named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The code's name.
            public var description: String { rawValue }

            /// The group has no `actions` argument.
            public static let missingActions = Code(rawValue: "missing-actions")
            /// `actions` is not an array.
            public static let actionsNotAnArray = Code(rawValue: "actions-not-an-array")
            /// A member is not an object with an `action` string.
            public static let memberNotAnAction = Code(rawValue: "member-not-an-action")
            /// A member's `args` is not an object.
            public static let argumentsNotAnObject = Code(rawValue: "arguments-not-an-object")
        }

        /// What is wrong, to branch on.
        public var code: Code
        /// What is wrong and how to fix it, for people.
        public var message: String

        /// An error of `code`, described by `message`.
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// The tags of a `pushbutton.add_tag` or `pushbutton.remove_tag`: its `tag`, or the strings of its `tags`.
    public var tags: [String] {
        if let tag = argumentValues["tag"]?.stringValue { return [tag] }
        return argumentValues["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
