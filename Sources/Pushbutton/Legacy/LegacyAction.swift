/// An iOS 8/9 notification action (`UIUserNotificationAction`).
public struct LegacyAction: Sendable, Hashable {
    /// Whether tapping opens the app (`UIUserNotificationActivationMode`).
    public enum ActivationMode: String, Sendable, Hashable, CaseIterable {
        case foreground
        case background
    }

    /// Whether the button is a plain button or opens a text field (`UIUserNotificationActionBehavior`).
    public enum Behavior: String, Sendable, Hashable, CaseIterable {
        case `default`
        case textInput
    }

    /// The parameter key under which iOS 9 took a text-input action's send-button title.
    public static let textInputButtonTitleKey = "UIUserNotificationTextInputActionButtonTitleKey"

    public var identifier: String
    public var title: LocalizedText
    public var activationMode: ActivationMode
    public var isDestructive: Bool
    public var isAuthenticationRequired: Bool
    public var behavior: Behavior
    /// Behavior parameters, e.g. ``textInputButtonTitleKey``.
    public var parameters: [String: String]

    public init(
        _ identifier: String, title: LocalizedText, activationMode: ActivationMode = .background,
        isDestructive: Bool = false, isAuthenticationRequired: Bool = false, behavior: Behavior = .default,
        parameters: [String: String] = [:]
    ) {
        self.identifier = identifier
        self.title = title
        self.activationMode = activationMode
        self.isDestructive = isDestructive
        self.isAuthenticationRequired = isAuthenticationRequired
        self.behavior = behavior
        self.parameters = parameters
    }
}
