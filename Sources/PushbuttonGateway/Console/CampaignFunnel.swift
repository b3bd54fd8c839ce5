import PushbuttonSupport

/// The campaign page's funnel: how many notifications APNs accepted, how many of those devices reported received
/// (display receipts, from apps that opt in), and how many were tapped.
enum CampaignFunnel {
    /// The funnel as a titled ordered list; each step with its share of the step before.
    static func html(_ stats: TapStats) -> HTML {
        let tappedBase = stats.received > 0 ? stats.received : stats.delivered
        let tappedOf = stats.received > 0 ? "of received" : "of accepted"
        return """
            <section class="panel" aria-labelledby="funnel-heading">
            <h2 id="funnel-heading">Accepted, received, tapped</h2>
            <ol id="funnel" class="funnel">\
            <li data-step="accepted"><span class="num">\(ConsolePage.count(stats.delivered))</span> accepted by APNs</li>\
            <li data-step="received"><span class="num">\(ConsolePage.count(stats.received))</span> received by devices \
            (\(CampaignChart.percent(stats.receivedRate)) of accepted)</li>\
            <li data-step="tapped"><span class="num">\(ConsolePage.count(stats.responses))</span> tapped \
            (\(CampaignChart.percent(TapStats.rate(stats.responses, of: tappedBase))) \(tappedOf))</li>\
            </ol>
            <p class="hint">Received counts only devices whose app sends display receipts from its service extension.</p>
            </section>

            """
    }
}
