/// An APNs payload: the `aps` dictionary, Pushbutton's per-button actions, the seeds' `action_args`
/// convention, and any other top-level keys.
///
/// Write it with ``PayloadWriter`` (compact JSON bytes, sorted keys), read any APNs payload with
/// ``parse(_:)-(Array<UInt8>)``, check it with ``PayloadValidator``.
public struct Payload: Sendable, Hashable {
    /// The top-level key of Pushbutton's per-button actions.
    public static let actionsKey = "pushbutton"
    /// The top-level key of the arguments for the app-defined action matching the tapped button.
    public static let actionArgumentsKey = "action_args"

    public var aps: APS
    /// What each button (and the body tap, and dismissal) does, under ``actionsKey``.
    public var actions: PayloadActions?
    /// `action_args`: the arguments of the app-defined action whose identifier matches the tapped button.
    public var actionArguments: [String: JSONValue]?
    /// Every other top-level key, kept as is (a parsed payload loses nothing).
    public var custom: [String: JSONValue]

    public init(
        aps: APS = APS(), actions: PayloadActions? = nil, actionArguments: [String: JSONValue]? = nil,
        custom: [String: JSONValue] = [:]
    ) {
        self.aps = aps
        self.actions = actions
        self.actionArguments = actionArguments
        self.custom = custom
    }

    /// A visible notification showing `category`'s buttons.
    public static func interactive(category: String, title: String? = nil, body: String) -> Payload {
        // Filled in place: nesting the initializers copies the whole (large) struct several times.
        var payload = Payload()
        payload.aps.alert = .content(AlertContent(title: title, body: body))
        payload.aps.category = category
        return payload
    }
}
