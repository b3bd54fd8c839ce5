/// `aps.interruption-level`. Extensible: a level Apple adds later parses and writes back unchanged.
public struct InterruptionLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let passive = InterruptionLevel(rawValue: "passive")
    public static let active = InterruptionLevel(rawValue: "active")
    public static let timeSensitive = InterruptionLevel(rawValue: "time-sensitive")
    public static let critical = InterruptionLevel(rawValue: "critical")

    /// The levels Apple documents.
    public static let known: [InterruptionLevel] = [.passive, .active, .timeSensitive, .critical]

    public var description: String { rawValue }
}
