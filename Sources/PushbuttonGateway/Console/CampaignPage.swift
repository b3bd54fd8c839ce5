import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// One campaign: its progress, and its statistics as pictures (taps per button, time to tap, outcomes) with
/// the same numbers in a table.
enum CampaignPage {
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func render(
        _ record: NotificationRecord, stats: TapStats?, statsProblem: String?, catalog: ConsoleCatalog,
        session: ConsoleSession
    ) -> HTML {
        let (category, text) = CampaignsPage.headline(record)
        let finished = CampaignsPage.finished(record)
        let pending = (record.counts[.queued] ?? 0) + (record.counts[.leased] ?? 0)
        var html: HTML = """
            <section class="panel" aria-labelledby="progress-heading">
            <h2 id="progress-heading">\(text.isEmpty ? "Campaign" : text)</h2>
            <p>Campaign <span class="mono" id="campaign-id">\(record.spec.id)</span> · category \
            <strong>\(category)</strong> · created \(time(record.spec.createdAt)) · \(CampaignTiming.state(record))</p>
            <label for="progress">Progress: \(ConsolePage.count(finished)) of \(ConsolePage.count(record.total)) \
            recipients finished</label>
            <progress id="progress" max="\(max(1, record.total))" value="\(finished)"></progress>
            </section>
            \(CampaignTiming.section(record))
            """
        let titles = Dictionary(
            (catalog.category(category)?.actions ?? []).map {
                ($0.identifier, $0.title.resolved(for: catalog.defaultLocale))
            }, uniquingKeysWith: { first, _ in first })
        if let stats {
            html += CampaignFunnel.html(stats)
            html += """
                <section class="panel" aria-labelledby="taps-heading">
                <h2 id="taps-heading">Which button works</h2>
                <div class="grid2"><div>\(CampaignChart.buttons(stats, titles: titles))</div>\
                <div>\(CampaignChart.timeToTap(stats))</div></div>
                <div class="table-wrap"><table id="buttons-table">
                <caption class="sr-only">Taps per button</caption>
                <thead><tr><th scope="col">Button</th><th scope="col" class="num">Taps</th>\
                <th scope="col" class="num">Of deliveries</th><th scope="col" class="num">Of responses</th></tr></thead>
                <tbody>

                """
            for button in stats.buttons {
                html += """
                    <tr><td>\(titles[button.button] ?? button.button) <span class="mono">\(button.button)</span></td>\
                    <td class="num">\(ConsolePage.count(button.taps))</td>\
                    <td class="num">\(CampaignChart.percent(button.rateOfDeliveries))</td>\
                    <td class="num">\(CampaignChart.percent(button.rateOfResponses))</td></tr>

                    """
            }
            html += """
                </tbody></table></div>
                <p>\(ConsolePage.count(stats.responses)) responses (\(CampaignChart.percent(stats.responseRate)) of \
                deliveries): \(ConsolePage.count(stats.body)) opened the notification, \
                \(stats.dismissals.map { ConsolePage.count($0) + " dismissed, " } ?? "")\
                \(ConsolePage.count(stats.foreground)) in the foreground, \(ConsolePage.count(stats.background)) in \
                the background.</p>
                </section>

                """
        } else {
            html += """
                <section class="panel"><p class="error-box" role="alert">Tap statistics are not available: \
                \(statsProblem ?? "the gateway has no stats for this campaign")</p></section>

                """
        }
        let sent = stats?.sent ?? finished
        let counts = CampaignTiming.counts(record)
        html += """
            <section class="panel" aria-labelledby="outcomes-heading">
            <h2 id="outcomes-heading">Deliveries</h2>
            \(CampaignChart.outcomes(
                sent: sent, delivered: stats?.delivered ?? record.counts[.delivered] ?? 0,
                rejected: stats?.rejected ?? record.counts[.rejected] ?? 0,
                failed: stats?.failed ?? record.counts[.failed] ?? 0, deadTokens: stats?.deadTokens, pending: pending))
            <div class="table-wrap"><table id="counts-table"><caption class="sr-only">Recipients by state</caption>
            <thead><tr>\(counts.map { state, _ -> HTML in "<th scope=\"col\" class=\"num\">\(state)</th>" }.joined())</tr></thead>
            <tbody><tr>\(counts.map { state, count -> HTML in "<td class=\"num\" data-state=\"\(state)\">\(ConsolePage.count(count))</td>" }.joined())</tr></tbody>
            </table></div>
            </section>
            """
        return ConsolePage.html("Campaign", section: .campaigns, session: session, content: html)
    }
}
