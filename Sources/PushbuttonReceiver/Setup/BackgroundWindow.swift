/// The time the system gives the app to finish work it started (on iOS, a background task assertion:
/// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`). Work begins a window, ends it when done,
/// and stops when told the window is about to close.
public protocol BackgroundWindow: Sendable {
    /// Asks for time to finish `name`; `expiring` is called when the time nears its end. Returns the window to
    /// pass to ``end(_:)``, or `nil` when the system gives none.
    func begin(_ name: String, expiring: @escaping @Sendable () -> Void) async -> Int?
    /// Ends the window `window` (each one exactly once).
    func end(_ window: Int) async
}
