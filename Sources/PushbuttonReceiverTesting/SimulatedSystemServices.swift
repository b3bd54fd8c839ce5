import Pushbutton
import PushbuttonReceiver

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
    /// One of the services, to make it fail.
    public enum Service: Sendable, Hashable, CaseIterable {
        case copy
        case requestReview
        case openSettings
        case share
    }

    /// Services that fail, and how (to test how a failure is reported).
    private var failures: [Service: SystemServiceError] = [:]

    public init() {}

    /// Makes `service` fail with `message` (and `code`) from now on.
    public func fail(_ service: Service, with message: String, code: SystemServiceError.Code = .failed) {
        failures[service] = SystemServiceError(code, message)
    }

    private func check(_ service: Service) throws(SystemServiceError) {
        if let failure = failures[service] { throw failure }
    }

    public func copy(_ text: String) async throws {
        try check(.copy)
        pasteboard = text
    }

    public func requestReview() async throws {
        try check(.requestReview)
        reviewRequests += 1
    }

    public func openSettings(_ page: SettingsPage) async throws {
        try check(.openSettings)
        openedSettings.append(page)
    }

    public func share(_ content: ShareContent) async throws {
        try check(.share)
        shareSheets.append(content)
    }
}
