import Foundation

/// Where a device reaches Pushbutton's gateway, and as which app.
public struct GatewayConnection: Sendable, Hashable {
    /// The gateway's origin, e.g. `https://push.example.com` (no trailing slash needed).
    public var baseURL: String
    /// The app's id in the gateway's configuration.
    public var app: String
    /// The app's publishable key: it may register devices, change their tags and report taps, nothing more.
    /// It is added to requests as they are sent (``GatewayAuthorizingSender``), never stored in the outbox.
    public var publishableKey: String
    /// `production` or `sandbox` (development builds).
    public var environment: String
    /// Whether the text of replies typed into text-input buttons is sent with their tap (off: never sent).
    public var reportsReplies: Bool

    /// A connection to the gateway at `baseURL` (a trailing slash is dropped) as `app`.
    public init(
        baseURL: String, app: String, publishableKey: String, environment: String = "production",
        reportsReplies: Bool = false
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.app = app
        self.publishableKey = publishableKey
        self.environment = environment
        self.reportsReplies = reportsReplies
    }

    /// `app` as a path segment.
    var appPath: String { app.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? app }

    func deviceURL(_ token: String) -> String { "\(baseURL)/v1/apps/\(appPath)/devices/\(token)" }
    var tapsURL: String { "\(baseURL)/v1/apps/\(appPath)/taps" }
    var receiptsURL: String { "\(baseURL)/v1/apps/\(appPath)/receipts" }
}
