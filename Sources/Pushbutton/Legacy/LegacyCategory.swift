/// An iOS 8/9 notification category (`UIUserNotificationCategory`): one action list per context.
public struct LegacyCategory: Sendable, Hashable {
    /// Where the actions were shown on iOS 8/9.
    public enum Context: String, Sendable, Hashable {
        /// Alerts and the expanded view: up to four actions shown.
        case `default`
        /// Banners and the lock screen: up to two actions shown.
        case minimal

        /// How many actions iOS 8/9 showed in this context.
        public var shownActionLimit: Int { self == .default ? 4 : 2 }
    }

    /// What the payload's `aps.category` names.
    public var identifier: String
    /// The actions of the default context.
    public var defaultActions: [LegacyAction]
    /// The actions of the minimal context.
    public var minimalActions: [LegacyAction]

    /// Creates a legacy category; converting it keeps the default list, or the minimal one when the default is empty.
    public init(_ identifier: String, defaultActions: [LegacyAction] = [], minimalActions: [LegacyAction] = []) {
        self.identifier = identifier
        self.defaultActions = defaultActions
        self.minimalActions = minimalActions
    }

    /// The actions of one context.
    public func actions(for context: Context) -> [LegacyAction] {
        context == .default ? defaultActions : minimalActions
    }
}
