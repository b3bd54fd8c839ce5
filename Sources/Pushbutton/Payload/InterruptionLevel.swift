/// `aps.interruption-level`. Extensible: a level Apple adds later parses and writes back unchanged.
public struct InterruptionLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The level as written in `aps.interruption-level`.
    public var rawValue: String
    /// Wraps any level, including one Apple adds later.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Added to the list silently: no sound, no screen lighting up.
    public static let passive = InterruptionLevel(rawValue: "passive")
    /// The default: presented at once, but held back by Focus.
    public static let active = InterruptionLevel(rawValue: "active")
    /// Presented at once and through Focus and scheduled summaries (needs the Time Sensitive capability).
    public static let timeSensitive = InterruptionLevel(rawValue: "time-sensitive")
    /// Presented at once, through Focus and the mute switch (needs Apple's critical-alerts entitlement).
    public static let critical = InterruptionLevel(rawValue: "critical")

    /// The levels Apple documents.
    public static let known: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]

    /// The raw value, as written in the payload.
    public var description: String { rawValue }
}
