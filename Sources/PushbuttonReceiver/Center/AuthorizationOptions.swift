/// What the app asks the user to allow. Raw values match `UNAuthorizationOptions` in Apple's headers.
public struct AuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let badge = AuthorizationOptions(rawValue: 1 << 0)
    public static let sound = AuthorizationOptions(rawValue: 1 << 1)
    public static let alert = AuthorizationOptions(rawValue: 1 << 2)
    public static let carPlay = AuthorizationOptions(rawValue: 1 << 3)
    public static let criticalAlert = AuthorizationOptions(rawValue: 1 << 4)
    public static let providesAppNotificationSettings = AuthorizationOptions(rawValue: 1 << 5)
    public static let provisional = AuthorizationOptions(rawValue: 1 << 6)
}
