/// Opens deep links and web URLs in the foreground app.
public protocol URLOpener: Sendable {
    /// Opens `url`; returns whether it could.
    func open(_ url: String) async -> Bool
}
