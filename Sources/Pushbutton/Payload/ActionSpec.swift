/// One action a tap runs: a name and JSON arguments.
///
/// Names in Pushbutton's `pushbutton.` namespace are built-in (see the constants); any other name is an
/// app-defined action, looked up in the app's action registry.
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

    /// Every built-in action name.
    public static let builtinNames = [deepLink, openURL, dismiss, callback]

    public var name: String
    public var arguments: [String: JSONValue]

    public init(_ name: String, arguments: [String: JSONValue] = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// Whether the name is one of Pushbutton's built-in actions.
    public var isBuiltin: Bool { Self.builtinNames.contains(name) }

    /// Whether this action needs the app in the foreground (it opens something).
    public var needsForeground: Bool { name == Self.deepLink || name == Self.openURL }
}
