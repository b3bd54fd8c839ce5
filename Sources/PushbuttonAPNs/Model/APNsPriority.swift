/// The `apns-priority` header: how urgently APNs delivers.
///
/// Extensible, as ``PushType`` is: APNs documents 10, 5 and 1 today.
public struct APNsPriority: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The header's number.
    public var rawValue: Int
    /// Wraps any priority number, including one APNs adds later.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 10: deliver now (alerts, sounds, badges).
    public static let immediately = APNsPriority(rawValue: 10)
    /// 5: deliver when the device's power allows; required for background (`content-available`) pushes.
    public static let consideringDevicePower = APNsPriority(rawValue: 5)
    /// 1: deliver when the device's power allows, and never wake it.
    public static let low = APNsPriority(rawValue: 1)

    /// The header's value.
    public var description: String { String(rawValue) }
}
