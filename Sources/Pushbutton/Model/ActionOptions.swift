/// How a button behaves. Raw values match `UNNotificationActionOptions` in Apple's headers.
public struct ActionOptions: OptionSet, Sendable, Hashable {
    /// The bits, as in `UNNotificationActionOptions`.
    public let rawValue: UInt
    /// Wraps raw bits; unknown bits are kept.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// The device must be unlocked before the action runs.
    public static let authenticationRequired = ActionOptions(rawValue: 1 << 0)
    /// The button is shown in red.
    public static let destructive = ActionOptions(rawValue: 1 << 1)
    /// Tapping opens the app; without it the action runs in the background.
    public static let foreground = ActionOptions(rawValue: 1 << 2)

    /// The manifest's names, in display order.
    public static let names: [(name: String, option: ActionOptions)] = [
        ("foreground", .foreground), ("destructive", .destructive), ("authenticationRequired", .authenticationRequired),
    ]

    /// The manifest names of the options that are set.
    public var nameList: [String] { Self.names.filter { contains($0.option) }.map(\.name) }
}
