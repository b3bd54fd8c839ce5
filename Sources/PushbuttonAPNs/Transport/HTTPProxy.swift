import Foundation

/// An HTTP proxy that the sender reaches APNs through, with `CONNECT host:443` (a tunnel): TLS still runs end
/// to end with APNs, so the proxy sees neither the provider token nor the payloads, and the server's
/// certificate is verified for the APNs host as without a proxy.
///
/// ```swift
/// let proxy = try HTTPProxy(url: "http://user:secret@proxy.internal:3128", bypass: ["localhost", ".corp"])
/// let transport = try NGHTTP2Transport(.init(environment: .production, proxy: proxy))
/// // or from HTTPS_PROXY / https_proxy and NO_PROXY / no_proxy, as curl reads them:
/// let fromEnvironment = try HTTPProxy.environment()
/// ```
///
/// Credentials go in `Proxy-Authorization: Basic`; ``description`` and every error show the proxy without
/// them (`http://***@proxy.internal:3128`).
public struct HTTPProxy: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address.
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// For `Proxy-Authorization: Basic`; nil sends none.
    public var username: String?
    /// The password for `Proxy-Authorization: Basic` (with ``username``).
    public var password: String?
    /// Hosts reached without the proxy, in `NO_PROXY`'s form: `*` for every host, `example.com` (or
    /// `.example.com`) for that host and every host under it, an address for that address.
    public var bypass: [String]

    /// A proxy at `host:port`, with credentials when given, that is not used for the hosts of `bypass`.
    public init(host: String, port: Int = 3128, username: String? = nil, password: String? = nil, bypass: [String] = [])
    {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.bypass = bypass
    }

    /// Reads `http://[user[:password]@]host[:port][/]` (no scheme means `http://`; the port defaults to 80, as
    /// curl's does for an `http://` proxy URL). User and password may be percent-encoded.
    public init(url: String, bypass: [String] = []) throws(APNsError) {
        var rest = Substring(url.trimmingCharacters(in: .whitespaces))
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "http" else {
                throw APNsError(
                    .invalidRequest,
                    "the proxy '\(Self.redact(url))' has the scheme '\(scheme)': only http:// proxies (which tunnel "
                        + "TLS with CONNECT) are supported")
            }
            rest = rest[range.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw APNsError(
                    .invalidRequest, "the proxy '\(Self.redact(url))' has a path: give only http://host:port")
            }
            rest = rest[..<slash]
        }
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userinfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let pieces = userinfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            username = String(pieces[0]).removingPercentEncoding ?? String(pieces[0])
            if pieces.count == 2 { password = String(pieces[1]).removingPercentEncoding ?? String(pieces[1]) }
        }
        var host = String(rest)
        var port = 80
        if host.hasPrefix("[") {  // [IPv6]:port
            guard let close = host.firstIndex(of: "]") else {
                throw APNsError(.invalidRequest, "the proxy '\(Self.redact(url))' has an unclosed '[' in its address")
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst(), in: url) }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            port = try Self.port(host[host.index(after: colon)...], in: url)
            host = String(host[..<colon])
        }
        guard !host.isEmpty else {
            throw APNsError(.invalidRequest, "the proxy '\(Self.redact(url))' has no host: give http://host:port")
        }
        self.init(host: host, port: port, username: username, password: password, bypass: bypass)
    }

    private static func port(_ text: Substring, in url: String) throws(APNsError) -> Int {
        guard let port = Int(text), (1...65_535).contains(port) else {
            throw APNsError(
                .invalidRequest, "the proxy '\(redact(url))' has the port '\(text)': give a number from 1 to 65535")
        }
        return port
    }

    /// The proxy the environment names for HTTPS, as curl reads it: `https_proxy`, else `HTTPS_PROXY`, else
    /// `all_proxy` / `ALL_PROXY`; its bypass list from `no_proxy`, else `NO_PROXY` (comma-separated). nil
    /// when none is set (or it is empty).
    public static func environment(
        _ variables: [String: String] = ProcessInfo.processInfo.environment
    ) throws(APNsError) -> HTTPProxy? {
        let names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { !(variables[$0] ?? "").isEmpty }), let url = variables[name] else {
            return nil
        }
        do {
            return try HTTPProxy(url: url, bypass: environmentBypass(variables))
        } catch {
            throw APNsError(error.kind, "\(name): \(error.message)")
        }
    }

    /// The hosts `no_proxy` (else `NO_PROXY`) lists, comma-separated, for a proxy given some other way.
    public static func environmentBypass(
        _ variables: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        (variables["no_proxy"] ?? variables["NO_PROXY"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// Whether a connection to `host` goes through this proxy (false when ``bypass`` names it).
    public func applies(to host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        for entry in bypass {
            var pattern = entry.lowercased()
            if pattern == "*" { return false }
            if let colon = pattern.lastIndex(of: ":"), !pattern.hasPrefix("["), pattern.filter({ $0 == ":" }).count == 1
            {
                pattern = String(pattern[..<colon])  // a port in the entry: the host part decides
            }
            pattern = pattern.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            if name == pattern || name.hasSuffix("." + pattern) { return false }
        }
        return true
    }

    /// `http://host:port`, with `***@` in place of any credentials.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://" + (username == nil ? "" : "***@") + "\(shownHost):\(port)"
    }

    /// The `Proxy-Authorization` value, when there are credentials.
    var authorization: String? {
        guard let username else { return nil }
        return "Basic " + Data((username + ":" + (password ?? "")).utf8).base64EncodedString()
    }

    /// `url` with its `user:password@` replaced by `***@`, for messages.
    public static func redact(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@") else { return url }
        let start = url.range(of: "://")?.upperBound ?? url.startIndex
        guard start <= at else { return url }
        return String(url[..<start]) + "***" + String(url[at...])
    }
}
