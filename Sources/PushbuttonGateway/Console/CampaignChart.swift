import Foundation
import PushbuttonSupport

/// The campaign page's pictures as server-rendered SVG (no script, no chart library): taps per button as a
/// share of deliveries, time to tap (median and 90th percentile), and what became of the sends (delivered,
/// rejected, failed, dead tokens). Each SVG has a title and a description for screen readers; the page puts
/// the same numbers in a table beside it.
enum CampaignChart {
    private static let width = 640
    private static let labelWidth = 170
    private static let barHeight = 26
    private static let gap = 12
    private static let font: HTML = "-apple-system, 'Helvetica Neue', Arial, sans-serif"

    /// One bar: its label, its length as a fraction of the longest possible bar, and the text after it.
    struct Bar {
        var label: String
        var fraction: Double
        var value: String
        var color: String
    }

    /// Taps per button, each bar the button's rate of deliveries (the axis runs to the largest rate, at least 10%).
    static func buttons(_ stats: TapStats, titles: [String: String]) -> HTML {
        let top = max(
            0.1,
            (stats.buttons.map(\.rateOfDeliveries) + [Double(stats.body) / Double(max(1, stats.delivered))]).max() ?? 0)
        var bars = stats.buttons.map { button in
            Bar(
                label: titles[button.button].map { "\($0) (\(button.button))" } ?? button.button,
                fraction: button.rateOfDeliveries / top,
                value: "\(button.taps) · \(percent(button.rateOfDeliveries)) of deliveries", color: "#007aff")
        }
        let bodyRate = stats.delivered > 0 ? Double(stats.body) / Double(stats.delivered) : 0
        bars.append(
            Bar(
                label: "Body (opened)", fraction: bodyRate / top,
                value: "\(stats.body) · \(percent(bodyRate)) of deliveries", color: "#5856d6"))
        if let dismissals = stats.dismissals {
            let rate = stats.delivered > 0 ? Double(dismissals) / Double(stats.delivered) : 0
            bars.append(
                Bar(
                    label: "Dismissed", fraction: rate / top,
                    value: "\(dismissals) · \(percent(rate)) of deliveries", color: "#8e8e93"))
        }
        let description =
            bars.map { "\($0.label): \($0.value)" }.joined(separator: "; ")
            + ". \(stats.responses) responses of \(stats.delivered) deliveries (\(percent(stats.responseRate)))."
        return chart(
            id: "chart-buttons", title: "Taps per button (share of deliveries)", description: description, bars: bars,
            axis: "0 – \(percent(top)) of deliveries")
    }

    /// Median and 90th-percentile time from delivery to the tap.
    static func timeToTap(_ stats: TapStats) -> HTML {
        let values = [("Median", stats.medianTimeToTap), ("90th percentile", stats.p90TimeToTap)]
        let top = max(1, values.compactMap(\.1).max() ?? 0)
        let bars = values.map { label, milliseconds in
            Bar(
                label: label, fraction: (milliseconds ?? 0) / top,
                value: milliseconds.map(duration) ?? "no taps yet", color: "#34c759")
        }
        return chart(
            id: "chart-time", title: "Time to tap",
            description: bars.map { "\($0.label): \($0.value)" }.joined(separator: "; "),
            bars: bars, axis: "0 – \(duration(top))")
    }

    /// What became of the sends: delivered, rejected (dead tokens among them), failed, still queued.
    static func outcomes(sent: Int, delivered: Int, rejected: Int, failed: Int, deadTokens: Int?, pending: Int)
        -> HTML
    {
        let top = Double(max(1, sent))
        func bar(_ label: String, _ count: Int, _ color: String) -> Bar {
            Bar(
                label: label, fraction: Double(count) / top,
                value: "\(count) · \(percent(Double(count) / top)) of sends", color: color)
        }
        var bars = [bar("Delivered", delivered, "#34c759"), bar("Rejected", rejected, "#ff9500")]
        if let deadTokens { bars.append(bar("Dead tokens", deadTokens, "#ff3b30")) }
        bars += [bar("Failed", failed, "#af52de"), bar("Not sent yet", pending, "#8e8e93")]
        return chart(
            id: "chart-outcomes", title: "What became of \(sent) send\(sent == 1 ? "" : "s")",
            description: bars.map { "\($0.label): \($0.value)" }.joined(separator: "; "), bars: bars,
            axis: "0 – \(sent) sends")
    }

    private static func chart(id: String, title: String, description: String, bars: [Bar], axis: String) -> HTML {
        let plot = width - labelWidth - 150
        let height = 44 + bars.count * (barHeight + gap) + 24
        var parts: [HTML] = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"\(id)\" role=\"img\" "
                + "aria-labelledby=\"\(id)-title \(id)-desc\" viewBox=\"0 0 \(width) \(height)\" "
                + "width=\"\(width)\" height=\"\(height)\" font-family=\"\(font)\">",
            "<title id=\"\(id)-title\">\(title)</title>",
            "<desc id=\"\(id)-desc\">\(description)</desc>",
            "<text x=\"0\" y=\"20\" font-size=\"16\" font-weight=\"600\" fill=\"#111\">\(title)</text>",
        ]
        for (index, bar) in bars.enumerated() {
            let y = 40 + index * (barHeight + gap)
            let length = bar.fraction > 0 ? max(2, Int((min(1, bar.fraction) * Double(plot)).rounded())) : 0
            parts.append(
                "<g class=\"bar\" data-label=\"\(bar.label)\">"
                    + "<text x=\"\(labelWidth - 8)\" y=\"\(y + 18)\" font-size=\"13\" text-anchor=\"end\" fill=\"#333\">"
                    + "\(truncated(bar.label, 24))</text>"
                    + "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(plot)\" height=\"\(barHeight)\" rx=\"4\" fill=\"#f0f0f3\"/>"
                    + "<rect class=\"value\" x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(length)\" height=\"\(barHeight)\" "
                    + "rx=\"4\" fill=\"\(bar.color)\"/>"
                    + "<text x=\"\(labelWidth + plot + 8)\" y=\"\(y + 18)\" font-size=\"12\" fill=\"#333\">"
                    + "\(bar.value)</text></g>")
        }
        parts.append(
            "<text x=\"\(labelWidth)\" y=\"\(height - 6)\" font-size=\"11\" fill=\"#6e6e73\">\(axis)</text>")
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// A fraction as a percentage with one decimal.
    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }

    /// Milliseconds as `850 ms`, `12.4 s` or `3.2 min`.
    static func duration(_ milliseconds: Double) -> String {
        if milliseconds < 1000 { return String(format: "%.0f ms", milliseconds) }
        if milliseconds < 120_000 { return String(format: "%.1f s", milliseconds / 1000) }
        if milliseconds < 7_200_000 { return String(format: "%.1f min", milliseconds / 60_000) }
        return String(format: "%.1f h", milliseconds / 3_600_000)
    }

    private static func truncated(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

}
