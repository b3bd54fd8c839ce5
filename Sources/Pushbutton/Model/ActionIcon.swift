/// A button's icon (iOS 15 and later).
public enum ActionIcon: Sendable, Hashable {
    /// An SF Symbol, by name (`UNNotificationActionIcon(systemImageName:)`).
    case system(String)
    /// A template image from the app's asset catalog (`UNNotificationActionIcon(templateImageName:)`).
    case template(String)

    /// The image's name.
    public var name: String {
        switch self {
        case .system(let name), .template(let name): return name
        }
    }
}
