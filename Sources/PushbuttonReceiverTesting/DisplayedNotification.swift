import PushbuttonReceiver

/// A notification as the simulated device presented it.
public struct DisplayedNotification: Sendable, Hashable {
    public var notification: DeliveredNotification
    /// Whether it was shown at all (not when notifications are not authorized).
    public var isShown: Bool
    /// Whether its category was registered; when not, iOS shows no buttons and no error.
    public var categoryIsRegistered: Bool
    /// The buttons shown, in order (empty when the category is unknown).
    public var buttons: [ShownButton]
    /// Whether dismissing it is reported to the app (`customDismissAction`).
    public var reportsDismissal: Bool
    /// The text shown instead of the body when previews are hidden.
    public var hiddenPreviewsPlaceholder: String?
}
