import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// The devices page: counts by environment, locale and app version, and the latest dead tokens (redacted).
enum DevicesPage {
    /// A token as the console and the summary API show it: its first 8 hex digits and an ellipsis.
    static func redacted(_ token: String) -> String { String(token.prefix(8)) + "…" }

    static func render(_ summary: DeviceSummary?, problem: String?, session: ConsoleSession) -> HTML {
        guard let summary else {
            return ConsolePage.html(
                "Devices", section: .devices, session: session,
                content:
                    "<p class=\"error-box\" role=\"alert\">\(problem ?? "The device summary is not available.")</p>")
        }
        func table(_ id: String, _ title: String, _ counts: [String: Int]) -> HTML {
            let rows = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { key, value -> HTML in
                let share = summary.total > 0 ? Double(value) / Double(summary.total) : 0
                return "<tr><td>\(key)</td><td class=\"num\">\(ConsolePage.count(value))</td>"
                    + "<td><progress max=\"1\" value=\"\(share)\" aria-label=\"\(CampaignChart.percent(share)) of devices\">"
                    + "</progress></td></tr>"
            }
            return """
                <section class="panel"><h2 id="\(id)-heading">\(title)</h2><div class="table-wrap">\
                <table id="\(id)" aria-labelledby="\(id)-heading"><thead><tr><th scope="col">\(title)</th>\
                <th scope="col" class="num">Devices</th><th scope="col">Share</th></tr></thead><tbody>\
                \(rows.isEmpty ? HTML("<tr><td colspan=\"3\">No devices.</td></tr>") : rows.joined())</tbody></table></div></section>
                """
        }
        var html: HTML = """
            <section class="panel"><p id="device-totals"><strong>\(ConsolePage.count(summary.total))</strong> registered: \
            <strong>\(ConsolePage.count(summary.active))</strong> active, \
            <strong>\(ConsolePage.count(summary.inactive))</strong> inactive (APNs said their token is dead).</p></section>
            <div class="grid2">
            \(table("by-environment", "Environment", summary.byEnvironment))
            \(table("by-locale", "Locale", summary.byLocale))
            \(table("by-version", "App version", summary.byAppVersion))
            </div>
            <section class="panel"><h2 id="inactive-heading">Dead tokens, latest first</h2><div class="table-wrap">
            <table id="inactive" aria-labelledby="inactive-heading"><thead><tr><th scope="col">Token</th>\
            <th scope="col">Inactive since</th></tr></thead><tbody>

            """
        for token in summary.inactiveTokens {
            html +=
                "<tr><td class=\"mono\">\(redacted(token.token))</td><td>\(CampaignPage.time(token.inactiveSince))</td></tr>\n"
        }
        if summary.inactiveTokens.isEmpty { html += "<tr><td colspan=\"2\">None.</td></tr>\n" }
        html += "</tbody></table></div></section>"
        return ConsolePage.html("Devices", section: .devices, session: session, content: html)
    }

    /// `GET /v1/apps/{app}/devices/summary`'s JSON (the shared contract of issue 16).
    static func json(_ summary: DeviceSummary) -> JSONValue {
        func counts(_ map: [String: Int]) -> JSONValue { .object(map.mapValues { .integer(Int64($0)) }) }
        return .object([
            "total": .integer(Int64(summary.total)), "active": .integer(Int64(summary.active)),
            "inactive": .integer(Int64(summary.inactive)), "by_environment": counts(summary.byEnvironment),
            "by_locale": counts(summary.byLocale), "by_app_version": counts(summary.byAppVersion),
            "inactive_tokens": .array(
                summary.inactiveTokens.map {
                    .object([
                        "token": .string(redacted($0.token)),
                        "inactive_since": .string(CampaignPage.time($0.inactiveSince)),
                    ])
                }),
        ])
    }
}
