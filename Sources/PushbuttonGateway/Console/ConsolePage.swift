import Pushbutton
import PushbuttonPreview
import PushbuttonSupport

/// The frame every console page shares (head, navigation, sign-out form) and the headers every console
/// answer carries: no caching, no framing, scripts and styles from the gateway only.
enum ConsolePage {
    enum Section: String {
        case compose = "Compose"
        case campaigns = "Campaigns"
        case devices = "Devices"
        case login = "Sign in"

        var path: String {
            switch self {
            case .compose: "/console/compose"
            case .campaigns: "/console/campaigns"
            case .devices: "/console/devices"
            case .login: "/console/login"
            }
        }
    }

    /// `'unsafe-inline'` styles only: the preview's own page (in a frame without scripts) has a style element.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        + "frame-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// A whole page: `content` inside the frame, with the navigation when someone is signed in.
    static func html(_ title: String, section: Section, session: ConsoleSession?, content: HTML) -> HTML {
        var navigation: HTML = ""
        if let session {
            let links = [Section.compose, .campaigns, .devices].map { item -> HTML in
                "<a href=\"\(item.path)\"\(item == section ? HTML(" aria-current=\"page\"") : "")>\(item.rawValue)</a>"
            }
            navigation = """
                <nav aria-label="Console">\(links.joined())</nav>
                <span class="app">App: <strong>\(session.app)</strong></span>
                <form method="post" action="/console/logout"><input type="hidden" name="csrf" \
                value="\(session.csrfToken)"><button type="submit">Sign out</button></form>
                """
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) — Pushbutton console</title>
            <link rel="icon" href="data:,">
            <link rel="stylesheet" href="/console/assets/console.css">
            <script src="/console/assets/console.js" defer></script>
            </head>
            <body>
            <header class="top"><span class="brand">Pushbutton console</span>\(navigation)</header>
            <main id="main">
            <h1>\(title)</h1>
            \(content)
            </main>
            </body>
            </html>

            """
    }

    /// `Referrer-Policy: same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with
    /// the console's own form posts (Fetch's rule for non-GET requests), which the Origin check must refuse;
    /// `same-origin` still sends nothing to other sites.
    static let securityHeaders: [(name: String, value: String)] = [
        ("content-security-policy", contentSecurityPolicy), ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"), ("referrer-policy", "same-origin"), ("cache-control", "no-store"),
    ]

    static func response(_ status: Int, _ html: HTML, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("content-type", "text/html; charset=utf-8")] + securityHeaders + headers,
            body: Array(html.text.utf8))
    }

    static func redirect(_ location: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("location", location)] + securityHeaders + headers)
    }

    /// Diagnostics as a list for a field's slot (empty when there are none).
    static func diagnostics(_ list: [Diagnostic]) -> HTML {
        guard !list.isEmpty else { return "" }
        let items = list.map { diagnostic -> HTML in
            let hint: HTML = diagnostic.hint.map { "<span class=\"hint\">hint: \($0)</span>" } ?? ""
            return
                "<li class=\"\(diagnostic.severity.rawValue)\">\(diagnostic.severity.rawValue): \(diagnostic.message)\(hint)</li>"
        }
        return "<ul>\(items.joined())</ul>"
    }

    /// An integer with thousands separators.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}
