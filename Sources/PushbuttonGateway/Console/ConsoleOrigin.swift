import Foundation

/// Whether a console form was posted from the console's own pages, as the browser tells: `Sec-Fetch-Site`
/// (current browsers send it with every request) and `Origin` (older browsers send it with every POST). A
/// cross-site form is refused before its CSRF token is checked, and so is a cross-site sign-in form, which has
/// no session token to check (login CSRF). A request with neither header (curl, a script) is not a browser's
/// cross-site form and passes. The console's pages send `Referrer-Policy: same-origin`, so their own forms carry
/// their real origin, not `null`.
enum ConsoleOrigin {
    static func isSameOrigin(_ request: HTTPRequest) -> Bool {
        if let site = request.header("sec-fetch-site"), !["same-origin", "none"].contains(site) { return false }
        guard let origin = request.header("origin") else { return true }
        // Behind a reverse proxy that rewrites Host, X-Forwarded-Host names what the browser addressed: a
        // cross-site HTML form cannot set that header, so accepting it opens nothing.
        let addressed = [request.authority, request.header("x-forwarded-host") ?? ""].filter { !$0.isEmpty }
        return addressed.contains { matches(origin: origin, authority: $0) }
    }

    /// Whether `origin` (`https://host[:port]`, or `null`) names the same host and port as `authority`
    /// (`host[:port]`), a port left out being the scheme's default.
    static func matches(origin: String, authority: String) -> Bool {
        guard let url = URLComponents(string: origin), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(), !host.isEmpty, ["http", "https"].contains(scheme)
        else { return false }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let addressed = URLComponents(string: "\(scheme)://\(authority)"), let addressedHost = addressed.host
        else { return false }
        return addressedHost.lowercased() == host && (addressed.port ?? defaultPort) == (url.port ?? defaultPort)
    }
}
