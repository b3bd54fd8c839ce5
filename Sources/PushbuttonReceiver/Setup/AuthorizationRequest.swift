/// Whether ``NotificationStartup`` asks the user for permission to show notifications, and for what.
public enum AuthorizationRequest: Sendable, Hashable {
    /// Ask at start-up for `options` (iOS prompts once; later requests get the answer given).
    case request(AuthorizationOptions)
    /// Do not ask: the app asks later itself (after explaining why, say), with
    /// ``UserNotificationCenter/requestAuthorization(options:)`` or the `pushbutton.request_permission` action.
    /// Until someone asks, iOS shows nothing.
    case none

    /// Alerts, sounds and badges.
    public static let standard = AuthorizationRequest.request([.alert, .sound, .badge])
}
