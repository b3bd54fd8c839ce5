import Pushbutton

/// System services that record what they are asked instead of doing it: the pasteboard's value, the review
/// requests, the settings pages opened and the share sheets shown, so a test can check what a tap did.
public actor SimulatedSystemServices: SystemServices {
    /// What is on the simulated pasteboard (`nil` until something is copied).
    public private(set) var pasteboard: String?
    /// How many times the rating prompt was asked for.
    public private(set) var reviewRequests = 0
    /// The Settings pages opened, in order.
    public private(set) var openedSettings: [SettingsPage] = []
    /// The share sheets shown, in order.
    public private(set) var shareSheets: [ShareContent] = []
    /// Services that fail, and why (to test how a failure is reported).
    private var failures: [String: String] = [:]

    public init() {}

    /// Makes the service named `service` (`copy`, `requestReview`, `openSettings`, `share`) fail with `message`.
    public func fail(_ service: String, with message: String) { failures[service] = message }

    private func check(_ service: String) throws(SystemServiceError) {
        if let message = failures[service] { throw SystemServiceError(message) }
    }

    public func copy(_ text: String) async throws {
        try check("copy")
        pasteboard = text
    }

    public func requestReview() async throws {
        try check("requestReview")
        reviewRequests += 1
    }

    public func openSettings(_ page: SettingsPage) async throws {
        try check("openSettings")
        openedSettings.append(page)
    }

    public func share(_ content: ShareContent) async throws {
        try check("share")
        shareSheets.append(content)
    }
}
