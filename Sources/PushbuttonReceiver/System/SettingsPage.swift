/// Which page of the Settings app `pushbutton.open_settings` opens.
public enum SettingsPage: String, Sendable, Hashable, CaseIterable {
    /// The app's own page (`UIApplication.openSettingsURLString`).
    case app
    /// The app's notification settings (`UIApplication.openNotificationSettingsURLString`, iOS 16).
    case notifications
}
