import Foundation
import PushbuttonSupport

/// An experiment as server-rendered SVG (no script): one bar per variant for its rate, a whisker over its
/// Wilson interval, and the holdout's rate as a dashed vertical line. Text is escaped by construction (`HTML`);
/// the SVG has a title and a description for screen readers, and the page puts the same numbers in a table.
enum ExperimentChart {
    private static let width = 640
    private static let labelWidth = 140
    private static let valueWidth = 150
    private static let barHeight = 24
    private static let gap = 14
    private static let font: HTML = "-apple-system, 'Helvetica Neue', Arial, sans-serif"

    /// The chart of `analysis`: the axis runs from 0 to a little beyond the largest upper bound (at least 1%).
    static func rates(_ analysis: ExperimentAnalysis, id: String = "chart-experiment") -> HTML {
        let bounds = analysis.variants.compactMap { $0.interval?.upper } + [analysis.holdout?.rate ?? 0]
        let top = max(0.01, (bounds.max() ?? 0) * 1.1)
        let plot = width - labelWidth - valueWidth
        let height = 44 + analysis.variants.count * (barHeight + gap) + 28
        func x(_ rate: Double) -> Int { labelWidth + Int((min(1, max(0, rate / top)) * Double(plot)).rounded()) }
        let title =
            "Rate of " + (analysis.metric.map { ExperimentWording.metric($0) } ?? "the metric")
            + " per variant, with \(ExperimentWording.confidence(analysis.confidence)) intervals"
        var description = analysis.variants.map { variant in
            "\(variant.name): "
                + (variant.rate.map { rate in
                    ExperimentWording.percent(rate)
                        + (variant.interval.map {
                            " (\(ExperimentWording.percent($0.lower)) to \(ExperimentWording.percent($0.upper)))"
                        } ?? "")
                } ?? "no \(analysis.trialUnit) yet")
        }.joined(separator: "; ")
        if let rate = analysis.holdout?.rate { description += "; holdout: \(ExperimentWording.percent(rate))" }
        var parts: [HTML] = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"\(id)\" role=\"img\" "
                + "aria-labelledby=\"\(id)-title \(id)-desc\" viewBox=\"0 0 \(width) \(height)\" "
                + "width=\"\(width)\" height=\"\(height)\" font-family=\"\(font)\">",
            "<title id=\"\(id)-title\">\(title)</title>",
            "<desc id=\"\(id)-desc\">\(description).</desc>",
            "<text x=\"0\" y=\"20\" font-size=\"16\" font-weight=\"600\" fill=\"#111\">\(title)</text>",
        ]
        for (index, variant) in analysis.variants.enumerated() {
            let y = 40 + index * (barHeight + gap)
            let control = variant.name == analysis.control
            var group: HTML =
                "<g class=\"variant\" data-variant=\"\(variant.name)\">"
                + "<text x=\"\(labelWidth - 8)\" y=\"\(y + 17)\" font-size=\"13\" text-anchor=\"end\" fill=\"#333\">"
                + "\(truncated(variant.name, 18))\(control ? " (control)" : "")</text>"
                + "<rect x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(plot)\" height=\"\(barHeight)\" rx=\"4\" fill=\"#f0f0f3\"/>"
            if let rate = variant.rate {
                let length = rate > 0 ? max(2, x(rate) - labelWidth) : 0
                group +=
                    "<rect class=\"rate\" x=\"\(labelWidth)\" y=\"\(y)\" width=\"\(length)\" height=\"\(barHeight)\" "
                    + "rx=\"4\" fill=\"\(control ? "#8e8e93" : "#007aff")\" fill-opacity=\"0.75\"/>"
            }
            if let interval = variant.interval {
                let low = x(interval.lower)
                let high = x(interval.upper)
                let middle = y + barHeight / 2
                group +=
                    "<g class=\"interval\" data-lower=\"\(fraction(interval.lower))\" "
                    + "data-upper=\"\(fraction(interval.upper))\" stroke=\"#111\" stroke-width=\"1.5\">"
                    + "<line x1=\"\(low)\" y1=\"\(middle)\" x2=\"\(high)\" y2=\"\(middle)\"/>"
                    + "<line x1=\"\(low)\" y1=\"\(middle - 6)\" x2=\"\(low)\" y2=\"\(middle + 6)\"/>"
                    + "<line x1=\"\(high)\" y1=\"\(middle - 6)\" x2=\"\(high)\" y2=\"\(middle + 6)\"/></g>"
            }
            let value = variant.rate.map { ExperimentWording.percent($0) } ?? "no \(analysis.trialUnit) yet"
            group +=
                "<text x=\"\(labelWidth + plot + 8)\" y=\"\(y + 17)\" font-size=\"12\" fill=\"#333\">"
                + "\(value) of \(ExperimentWording.count(variant.trials))</text></g>"
            parts.append(group)
        }
        let bottom = 40 + analysis.variants.count * (barHeight + gap) - gap
        if let holdout = analysis.holdout, let rate = holdout.rate {
            let position = x(rate)
            parts.append(
                "<g class=\"holdout\" data-rate=\"\(fraction(rate))\"><line x1=\"\(position)\" y1=\"34\" "
                    + "x2=\"\(position)\" y2=\"\(bottom + 4)\" stroke=\"#ff9500\" stroke-width=\"2\" "
                    + "stroke-dasharray=\"5 3\"/><text x=\"\(position + 4)\" y=\"\(bottom + 16)\" font-size=\"11\" "
                    + "fill=\"#c66a00\">holdout \(ExperimentWording.percent(rate))</text></g>")
        }
        parts.append(
            "<text x=\"\(labelWidth)\" y=\"\(height - 4)\" font-size=\"11\" fill=\"#6e6e73\">"
                + "0 – \(ExperimentWording.percent(top)) of \(analysis.trialUnit)</text>")
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// A rate with 6 decimals, for the data attributes tests and scripts read.
    static func fraction(_ value: Double) -> String { String(format: "%.6f", value) }

    private static func truncated(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
