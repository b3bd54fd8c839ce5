/// A button as the simulated device shows it.
public struct ShownButton: Sendable, Hashable {
    public var identifier: String
    /// The title in the device's locale.
    public var title: String
    /// Shown in red.
    public var isDestructive: Bool
    /// Tapping opens the app (otherwise the action runs in the background).
    public var opensApp: Bool
    /// The device must be unlocked first (a lock icon).
    public var requiresUnlock: Bool
    /// For a text-input action: the send button's title and the field's placeholder.
    public var textField: (buttonTitle: String, placeholder: String)?
    /// An SF Symbol or template image name.
    public var icon: String?

    public static func == (lhs: ShownButton, rhs: ShownButton) -> Bool {
        lhs.identifier == rhs.identifier && lhs.title == rhs.title && lhs.isDestructive == rhs.isDestructive
            && lhs.opensApp == rhs.opensApp && lhs.requiresUnlock == rhs.requiresUnlock
            && lhs.textField?.buttonTitle == rhs.textField?.buttonTitle
            && lhs.textField?.placeholder == rhs.textField?.placeholder && lhs.icon == rhs.icon
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(title)
    }
}
