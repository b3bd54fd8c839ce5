import Foundation

/// How ``CurlSender`` reaches backends: through the proxy the environment names (libcurl's own reading of
/// `https_proxy`, `HTTPS_PROXY`, `http_proxy`, `NO_PROXY`…), directly, or through a given HTTP proxy.
///
/// ```swift
/// let sender = CurlSender(proxy: .http(url: "http://user:secret@proxy.internal:3128", bypass: ["localhost"]))
/// ```
///
/// Through a given proxy every request is tunnelled with `CONNECT` (plain `http://` ones too), so the
/// proxy only relays bytes; TLS to the backend is verified as without it. Errors show the proxy without its
/// credentials.
public enum CurlProxy: Sendable, Hashable, CustomStringConvertible {
    /// What the process environment says, as libcurl reads it (the default).
    case environment
    /// No proxy, whatever the environment says.
    case direct
    /// This proxy (`http://[user:password@]host:port`), except for the hosts of `bypass` (`NO_PROXY`'s form:
    /// `*`, `example.com` for it and its subdomains, an address).
    case http(url: String, bypass: [String])

    /// The choice, with a proxy's credentials shown as `***`.
    public var description: String {
        switch self {
        case .environment: return "the environment's proxy settings"
        case .direct: return "no proxy"
        case .http(let url, _): return Self.redact(url)
        }
    }

    /// `url` with its `user:password@` replaced by `***@`.
    static func redact(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard start <= at else { return url }
        return String(url[..<start]) + "***" + String(url[at...])
    }

    /// The `user:password` part of the URL, to scrub from libcurl's messages.
    var userinfo: String? {
        guard case .http(let url, _) = self, let at = url.lastIndex(of: "@") else { return nil }
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard start < at else { return nil }
        return String(url[start..<at])
    }
}
