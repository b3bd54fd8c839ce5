import Foundation

/// One request as the routes see it: copied out of the server library, so it can cross threads.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    public var method: String
    /// The path without the query string, percent-escapes left as sent.
    public var path: String
    /// The query string's pairs (later duplicates win), percent-decoded.
    public var query: [String: String]
    /// Header names in lowercase; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The request's body, whole (bounded by the server's `maxBodyBytes`).
    public var body: [UInt8]
    /// `HTTP/1.1` or `HTTP/2`.
    public var version: String
    /// The host (and port, if sent) the client addressed: HTTP/1's `Host` or HTTP/2's `:authority`; empty if
    /// none was sent.
    public var authority: String
    /// The client's IP address as text (the proxy's, behind a reverse proxy); empty when unknown.
    public var peer: String

    /// A request as the server copies it out, or as a test makes one.
    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        body: [UInt8] = [], version: String = "HTTP/1.1", authority: String = "", peer: String = ""
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.version = version
        self.authority = authority
        self.peer = peer
    }

    /// The value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Splits `target` (`/a/b?x=1&y=2`) into its path and decoded query.
    static func split(target: String) -> (path: String, query: [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            query[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return (String(target[..<mark]), query)
    }
}
