import Pushbutton

/// What the device does for the built-in actions that reach beyond notifications: the pasteboard
/// (`pushbutton.copy`), the rating prompt (`pushbutton.rate_app`), the Settings app (`pushbutton.open_settings`)
/// and the share sheet (`pushbutton.share`).
///
/// `SimulatedSystemServices` (PushbuttonReceiverTesting) records what it is asked, for tests and the command line; the
/// `PushbuttonUserNotifications` module implements it over UIKit and StoreKit on iOS. The router calls these
/// only for a foreground button or a body tap, when the app is coming on screen.
public protocol SystemServices: Sendable {
    /// Puts `text` on the general pasteboard.
    func copy(_ text: String) async throws
    /// Asks the system to show the App Store rating prompt. The system decides whether it appears (it shows
    /// it at most a few times a year), so success means "asked", never "shown".
    func requestReview() async throws
    /// Opens the app's page in the Settings app.
    func openSettings(_ page: SettingsPage) async throws
    /// Shows the share sheet with `content`; returns once it is on screen (the user's choice is theirs).
    func share(_ content: ShareContent) async throws
}
