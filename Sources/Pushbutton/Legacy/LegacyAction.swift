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

    /// What the app received when the button was tapped.
    public var identifier: String
    /// The button's title.
    public var title: LocalizedText
    /// Foreground opens the app; background runs the action without it. Converted to ``ActionOptions/foreground``.
    public var activationMode: ActivationMode
    /// Whether the button was shown in red. Converted to ``ActionOptions/destructive``.
    public var isDestructive: Bool
    /// Whether the device had to be unlocked first. Converted to ``ActionOptions/authenticationRequired``.
    public var isAuthenticationRequired: Bool
    /// Plain button or text input; a text-input action becomes a modern text-input action.
    public var behavior: Behavior
    /// Behavior parameters, e.g. ``textInputButtonTitleKey``.
    public var parameters: [String: String]

    /// Creates a legacy action; the defaults are those of iOS 8/9 (background, not destructive, no
    /// authentication, a plain button).
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
