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

    /// Pushbutton's built-in actions.
    public enum Builtin: Sendable, Hashable {
        case deepLink
        case openURL
        case dismiss
        case callback
    }

    /// Which built-in action the name is (spelled exactly), if any. Compared as bytes: validation asks for
    /// every action of every payload, and these names are too long for Swift's small-string fast path.
    public var builtin: Builtin? {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count >= 18, bytes.count <= 19, Self.matches(bytes, "pushbutton.", at: 0) else { return nil }
            if Self.matches(bytes, "callback", at: 11) { return .callback }
            if Self.matches(bytes, "deeplink", at: 11) { return .deepLink }
            if Self.matches(bytes, "open_url", at: 11) { return .openURL }
            if Self.matches(bytes, "dismiss", at: 11) { return .dismiss }
            return nil
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

    /// Whether this action needs the app in the foreground (it opens something).
    public var needsForeground: Bool {
        let kind = builtin
        return kind == .deepLink || kind == .openURL
    }
}
