/// Identifiers that belong to the system or to Pushbutton and that app actions must not use.
public enum SystemIdentifiers {
    /// The user tapped the notification's body (`UNNotificationDefaultActionIdentifier`).
    public static let defaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The user dismissed the notification (`UNNotificationDismissActionIdentifier`); delivered only
    /// for categories with `customDismissAction`.
    public static let dismissAction = "com.apple.UNNotificationDismissActionIdentifier"
    /// Pushbutton's namespace for its built-in categories, buttons and payload actions.
    public static let reservedPrefix = "pushbutton."

    /// Whether `identifier` is one of the system's response identifiers.
    public static func isSystemIdentifier(_ identifier: String) -> Bool {
        identifier == defaultAction || identifier == dismissAction
    }

    /// Whether `identifier` is in Pushbutton's namespace (compared case-insensitively, without allocating:
    /// validation asks this for every action of every payload).
    public static func isReserved(_ identifier: String) -> Bool {
        let prefix: StaticString = "pushbutton."
        return prefix.withUTF8Buffer { expected in
            var index = 0
            for byte in identifier.utf8 {
                if index == expected.count { return true }
                let folded = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                if folded != expected[index] { return false }
                index += 1
            }
            return index == expected.count
        }
    }
}
