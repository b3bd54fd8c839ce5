/// Where notifications go.
public struct APNsEnvironment: Sendable, Hashable, CustomStringConvertible {
    /// The host name, e.g. `api.push.apple.com`.
    public var host: String
    /// The port: 443, or 2197 where 443 is blocked.
    public var port: Int
    /// A private CA to trust in addition to the system's (for a local stand-in). Verification stays on.
    public var caFile: String?
    /// Cleartext HTTP/2 (h2c): only when asked for, for a local stand-in.
    public var cleartext: Bool

    /// An APNs host (or a local stand-in); TLS with the system's CAs unless told otherwise.
    public init(host: String, port: Int = 443, caFile: String? = nil, cleartext: Bool = false) {
        self.host = host
        self.port = port
        self.caFile = caFile
        self.cleartext = cleartext
    }

    /// `api.push.apple.com`: for apps from the App Store, TestFlight and ad-hoc builds.
    public static let production = APNsEnvironment(host: "api.push.apple.com")
    /// `api.sandbox.push.apple.com`: for development builds (tokens of the `sandbox` environment).
    public static let sandbox = APNsEnvironment(host: "api.sandbox.push.apple.com")

    /// `https://host:port`, or `http://` for h2c.
    public var origin: String { "\(cleartext ? "http" : "https")://\(host):\(port)" }

    /// The origin, and the private CA when there is one.
    public var description: String { origin + (caFile.map { " (CA \($0))" } ?? "") }
}
