/// How an action came to run.
public enum Situation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A button with the `foreground` option: the app is opening.
    case foregroundButton = "foreground button"
    /// A button without `foreground`: the app runs in a short background window.
    case backgroundButton = "background button"
    /// The user tapped the notification's body: the app is opening.
    case bodyTap = "body tap"
    /// The user dismissed the notification (reported only with `customDismissAction`).
    case dismiss
    /// The app performed the action itself.
    case manual

    /// Whether the app is in the foreground, so it may open links and show UI.
    public var isForeground: Bool { self == .foregroundButton || self == .bodyTap || self == .manual }

    public var description: String { rawValue }
}
