/// `aps.event` of a Live Activity push. Extensible, like ``PushType``: an event Apple adds later parses and
/// writes back unchanged.
public struct LiveActivityEvent: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The value of `aps.event`.
    public var rawValue: String
    /// The event whose value is `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Starts a Live Activity (push-to-start, iOS 17.2): needs `attributes-type`, `attributes` and an alert.
    public static let start = LiveActivityEvent(rawValue: "start")
    /// Updates a running Live Activity's `content-state`, optionally with an alert.
    public static let update = LiveActivityEvent(rawValue: "update")
    /// Ends a Live Activity, optionally with its final `content-state` and a `dismissal-date`.
    public static let end = LiveActivityEvent(rawValue: "end")

    /// The events Apple documents.
    public static let known: [LiveActivityEvent] = [.start, .update, .end]

    /// The value of `aps.event`.
    public var description: String { rawValue }
}
