/// Where notifications go.
public struct APNsEnvironment: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// A private CA to trust in addition to the system's (for a local stand-in). Verification stays on.
    public var caFile: String?
    /// Cleartext HTTP/2 (h2c): only when asked for, for a local stand-in.
    public var cleartext: Bool

    public init(host: String, port: Int = 443, caFile: String? = nil, cleartext: Bool = false) {
        self.host = host
        self.port = port
        self.caFile = caFile
        self.cleartext = cleartext
    }

    public static let production = APNsEnvironment(host: "api.push.apple.com")
    public static let sandbox = APNsEnvironment(host: "api.sandbox.push.apple.com")

    /// `https://host:port`, or `http://` for h2c.
    public var origin: String { "\(cleartext ? "http" : "https")://\(host):\(port)" }

    public var description: String { origin + (caFile.map { " (CA \($0))" } ?? "") }
}
