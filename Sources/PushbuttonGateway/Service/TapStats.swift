import Pushbutton
import PushbuttonStore

/// A campaign's, a category's or the whole app's outcomes and taps as counts and rates: what
/// `GET /v1/apps/{app}/stats` answers (the shared contract of issue 16) and what the console's charts draw.
/// Rates are fractions from 0 to 1, rounded to 4 decimals.
struct TapStats: Sendable, Equatable {
    /// One button of the category: its taps and rates.
    struct Button: Sendable, Equatable {
        var button: String
        var taps: Int
        var rateOfDeliveries: Double
        var rateOfResponses: Double
    }

    var app: String
    var campaign: String?
    var category: String?
    /// The window as the query gave it (RFC 3339), nil when open.
    var from: String?
    var to: String?
    var sent: Int
    var delivered: Int
    var rejected: Int
    var failed: Int
    var deadTokens: Int
    var responses: Int
    var responseRate: Double
    /// The category's buttons in its order (0 when none was tapped), then any other tapped ones.
    var buttons: [Button]
    var body: Int
    /// Nil when the category does not report dismissals (no `customDismissAction`).
    var dismissals: Int?
    var foreground: Int
    var background: Int
    var medianTimeToTap: Double?
    var p90TimeToTap: Double?
    /// Notifications devices reported received (display receipts from their service extensions).
    var received = 0
    /// `received` per delivered notification.
    var receivedRate: Double = 0
    /// Responses per received notification.
    var responseRateOfReceived: Double = 0

    /// The store's figures for a scope, with the rates worked out.
    init(
        _ statistics: TapStatistics, app: String, campaign: String?, category: String?,
        definition: Pushbutton.Category?, from: String?, to: String?
    ) {
        self.app = app
        self.campaign = campaign
        self.category = category
        self.from = from
        self.to = to
        delivered = statistics.deliveries[.delivered] ?? 0
        rejected = statistics.deliveries[.rejected] ?? 0
        failed = statistics.deliveries[.failed] ?? 0
        sent = delivered + rejected + failed
        deadTokens = statistics.deadTokens
        responses = statistics.responses
        responseRate = Self.rate(responses, of: delivered)
        var order = definition?.actions.map(\.identifier) ?? []
        order += statistics.buttons.keys.filter { !order.contains($0) }.sorted()
        received = statistics.received
        receivedRate = Self.rate(received, of: delivered)
        responseRateOfReceived = Self.rate(responses, of: received)
        let (delivered, responses) = (delivered, responses)
        buttons = order.map { button in
            let taps = statistics.buttons[button] ?? 0
            return Button(
                button: button, taps: taps, rateOfDeliveries: Self.rate(taps, of: delivered),
                rateOfResponses: Self.rate(taps, of: responses))
        }
        body = statistics.body
        let reportsDismissal = definition.map { $0.options.contains(.customDismissAction) }
        dismissals = reportsDismissal == false ? nil : statistics.dismissals
        foreground = statistics.foreground
        background = statistics.background
        medianTimeToTap = statistics.medianLatencyMilliseconds
        p90TimeToTap = statistics.p90LatencyMilliseconds
    }

    /// Figures given one by one (the console's tests draw charts from them).
    init(
        app: String, campaign: String? = nil, category: String? = nil, from: String? = nil, to: String? = nil,
        sent: Int, delivered: Int, rejected: Int, failed: Int, deadTokens: Int, responses: Int, responseRate: Double,
        buttons: [Button], body: Int, dismissals: Int?, foreground: Int, background: Int, medianTimeToTap: Double?,
        p90TimeToTap: Double?
    ) {
        (self.app, self.campaign, self.category, self.from, self.to) = (app, campaign, category, from, to)
        (self.sent, self.delivered, self.rejected, self.failed) = (sent, delivered, rejected, failed)
        (self.deadTokens, self.responses, self.responseRate) = (deadTokens, responses, responseRate)
        (self.buttons, self.body, self.dismissals) = (buttons, body, dismissals)
        (self.foreground, self.background) = (foreground, background)
        (self.medianTimeToTap, self.p90TimeToTap) = (medianTimeToTap, p90TimeToTap)
    }

    /// A fraction 0…1, rounded to 4 decimals; 0 when there is nothing to divide by.
    static func rate(_ part: Int, of whole: Int) -> Double {
        guard whole > 0 else { return 0 }
        return (Double(part) / Double(whole) * 10_000).rounded() / 10_000
    }
}
