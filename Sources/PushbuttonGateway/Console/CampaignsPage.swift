import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// The campaign list: each campaign's title, category, when it was created, its state (scheduled, held,
/// throttled…), when it is sent with its rate and expected finish, and its progress.
enum CampaignsPage {
    /// What a campaign's first line asked for: its category and title (or body), for the list and its page.
    static func headline(_ record: NotificationRecord) -> (category: String, text: String) {
        let request = (try? JSONParser.parse(record.spec.request))?.objectValue ?? [:]
        let aps = request["payload"]?.objectValue?["aps"]?.objectValue
        let alert = aps?["alert"]?.objectValue
        let category = request["category"]?.stringValue ?? aps?["category"]?.stringValue ?? "—"
        let text =
            request["title"]?.stringValue ?? alert?["title"]?.stringValue ?? request["body"]?.stringValue
            ?? alert?["body"]?.stringValue ?? aps?["alert"]?.stringValue ?? ""
        return (category, text)
    }

    static func finished(_ record: NotificationRecord) -> Int {
        record.counts.filter { $0.key.isFinal }.values.reduce(0, +)
    }

    static func render(_ records: [NotificationRecord], session: ConsoleSession, unavailable: String? = nil) -> HTML {
        var html: HTML = ""
        if let unavailable { html += "<p class=\"error-box\" role=\"alert\">\(unavailable)</p>" }
        if records.isEmpty && unavailable == nil {
            html +=
                "<p class=\"panel\">No campaigns yet. <a href=\"/console/compose\">Compose one</a> and send it to a recipient list.</p>"
        }
        if !records.isEmpty {
            html += """
                <section class="panel"><div class="table-wrap"><table id="campaigns">
                <caption class="sr-only">Campaigns, newest first</caption>
                <thead><tr><th scope="col">Campaign</th><th scope="col">Category</th><th scope="col">Created</th>\
                <th scope="col">State</th><th scope="col">When</th><th scope="col">Progress</th><th scope="col" class="num">Delivered</th>\
                <th scope="col" class="num">Rejected</th><th scope="col" class="num">Failed</th></tr></thead><tbody>

                """
            for record in records {
                let (category, text) = headline(record)
                let finished = finished(record)
                let id = record.spec.id
                html += """
                    <tr><td><a href="/console/campaigns/\(id)">\(text.isEmpty ? record.spec.id : text)</a>\
                    <br><span class="mono">\(id)</span></td><td>\(category)</td>\
                    <td>\(CampaignPage.time(record.spec.createdAt))</td>\
                    <td class="state">\(CampaignTiming.state(record))</td><td>\(CampaignTiming.summary(record))</td>\
                    <td><progress max="\(max(1, record.total))" value="\(finished)" \
                    aria-label="\(finished) of \(record.total) recipients finished"></progress>\
                    \(ConsolePage.count(finished)) / \(ConsolePage.count(record.total))</td>\
                    <td class="num">\(ConsolePage.count(record.counts[.delivered] ?? 0))</td>\
                    <td class="num">\(ConsolePage.count(record.counts[.rejected] ?? 0))</td>\
                    <td class="num">\(ConsolePage.count(record.counts[.failed] ?? 0))</td></tr>

                    """
            }
            html += "</tbody></table></div></section>"
        }
        return ConsolePage.html("Campaigns", section: .campaigns, session: session, content: html)
    }
}
