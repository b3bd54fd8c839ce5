import Foundation
import PushbuttonSupport

/// A campaign's experiment on the console: where it stands and the decision in words, the chart (bars with their
/// intervals, the holdout as a line), and the table of every number the chart draws.
enum ExperimentPage {
    /// The whole page.
    static func render(_ report: ExperimentReport, session: ConsoleSession) -> HTML {
        ConsolePage.html("Experiment", section: .campaigns, session: session, content: content(report))
    }

    /// The page's content (what ``render(_:session:)`` puts in the console's frame).
    static func content(_ report: ExperimentReport) -> HTML {
        let analysis = report.analysis
        let metric = analysis.metric.map { ExperimentWording.metric($0) } ?? "the metric"
        return """
            <section class="panel" aria-labelledby="experiment-heading">
            <h2 id="experiment-heading">Experiment on \(metric)</h2>
            <p>Campaign <a class="mono" id="campaign-id" href="/console/campaigns/\(report.campaign)">\
            \(report.campaign)</a> · control <strong>\(analysis.control)</strong> · default \
            <strong>\(report.defaultVariant)</strong> · \(state(report))</p>
            <p class="decision" id="decision">\(sentence(report))</p>
            \(ExperimentChart.rates(analysis))
            \(table(analysis, labels: report.labels))
            <p class="note">\(notes(analysis))</p>
            </section>
            """
    }

    /// Where the experiment stands, in a few words: "testing until 2026-12-03 14:00 UTC", "decided at …",
    /// "rolled out at …", "all variants sent".
    static func state(_ report: ExperimentReport) -> String {
        switch report.phase {
        case .testing(let until): until.map { "testing until \(time($0))" } ?? "testing"
        case .decided(let at): "decided at \(time(at)), rolling out"
        case .rolledOut(let at): "decided at \(time(at)), rolled out"
        case .observing: "all variants sent, nothing to decide"
        }
    }

    /// The decision in one sentence, or why there is none yet (no provisional winner: no peeking).
    static func sentence(_ report: ExperimentReport) -> String {
        guard let verdict = report.verdict else {
            switch report.phase {
            case .testing(let until):
                return "No decision yet: the experiment decides once, "
                    + (until.map { "at \(time($0))" } ?? "when its planned sample is in")
                    + (report.analysis.plannedTrialsPerVariant != nil
                        ? " or when every variant has its planned "
                            + "\(report.analysis.trialUnit)" : "")
                    + ". The numbers below move until then and decide nothing."
            default:
                return "No decision recorded."
            }
        }
        let sent =
            verdict.winner == nil ? "\(verdict.rolledOut) (the default) goes out" : "\(verdict.rolledOut) goes out"
        var text = verdict.reason
        switch report.phase {
        case .rolledOut(let at), .decided(let at):
            text += " — \(sent)" + (report.remainingShare.map { " to the remaining \($0)%" } ?? "")
            text += report.phase == .rolledOut(at: at) ? ", sent from \(time(at))." : ", sending since \(time(at))."
        default:
            text += "."
        }
        return text
    }

    /// The table: per variant its counts, rate and interval, and against the control the difference with its
    /// interval, the test, the p-values and the minimum detectable effect.
    static func table(_ analysis: ExperimentAnalysis, labels: [String: String]) -> HTML {
        let level = ExperimentWording.confidence(analysis.confidence)
        var html: HTML = """
            <div class="table-wrap"><table id="experiment-table">
            <caption class="sr-only">Variants of the experiment</caption>
            <thead><tr><th scope="col">Variant</th><th scope="col" class="num">\(analysis.trialUnit.capitalized)</th>\
            <th scope="col" class="num">Taps</th><th scope="col" class="num">Rate (\(level) CI)</th>\
            <th scope="col" class="num">vs \(analysis.control), points (\(level) CI)</th>\
            <th scope="col">Test</th><th scope="col" class="num">p</th>\
            <th scope="col" class="num">\(analysis.correction == "holm" ? "p after Holm" : "p (one comparison)")</th>\
            <th scope="col" class="num">Detectable rise</th></tr></thead>
            <tbody>

            """
        let rows =
            analysis.variants.map { ($0, $0.name == analysis.control ? " (control)" : "") }
            + (analysis.holdout.map { [($0, " (holdout)")] } ?? [])
        for (variant, role) in rows {
            let comparison = analysis.comparison(of: variant.name)
            let label: HTML = labels[variant.name].map { " <span class=\"mono\">\($0)</span>" } ?? ""
            html += """
                <tr data-variant="\(variant.name)"><th scope="row">\(variant.name)\(role)\(label)</th>\
                <td class="num">\(ExperimentWording.count(variant.trials))</td>\
                <td class="num">\(ExperimentWording.count(variant.successes))</td>\
                <td class="num">\(rate(variant))</td>\
                <td class="num">\(comparison.map(difference) ?? "")</td>\
                <td>\(comparison.map(testName) ?? "")</td>\
                <td class="num">\(comparison?.pValue.map(pNumber) ?? "")</td>\
                <td class="num">\(comparison?.pValueAdjusted.map(pNumber) ?? "")</td>\
                <td class="num">\(comparison.map(detectable) ?? "")</td></tr>

                """
        }
        html += "</tbody></table></div>"
        return html
    }

    /// What the table's methods are, and the planned sample, in words.
    static func notes(_ analysis: ExperimentAnalysis) -> String {
        var text =
            "Rates with Wilson intervals; differences with Newcombe's hybrid score intervals; p from the pooled "
            + "two-proportion z-test, or Fisher's exact test where an expected count is under 5"
        text +=
            analysis.correction == "holm" ? "; Holm's correction for \(analysis.comparisons.count) comparisons." : "."
        if let planned = analysis.plannedTrialsPerVariant {
            text +=
                " Planned: \(ExperimentWording.count(planned)) \(analysis.trialUnit) per variant; the smallest has "
                + "\(ExperimentWording.count(analysis.smallestArmTrials))"
                + (analysis.plannedSampleReached ? " (reached)." : ".")
        }
        text += " The detectable rise is the smallest rise over the control these arms detect 80% of the time."
        return text
    }

    private static func rate(_ variant: VariantAnalysis) -> String {
        guard let rate = variant.rate else { return variant.note ?? "–" }
        return ExperimentWording.percent(rate)
            + (variant.interval.map {
                " (\(ExperimentWording.percent($0.lower)) – \(ExperimentWording.percent($0.upper)))"
            } ?? "")
    }

    private static func difference(_ comparison: ExperimentComparison) -> String {
        guard let difference = comparison.difference else { return comparison.note ?? "–" }
        return ExperimentWording.points(difference)
            + (comparison.interval.map {
                " (\(ExperimentWording.points($0.lower)) to \(ExperimentWording.points($0.upper)))"
            } ?? "")
    }

    private static func testName(_ comparison: ExperimentComparison) -> String {
        switch comparison.test {
        case .zTestPooled: "z-test"
        case .fisherExact: "Fisher's exact"
        case .none: "–"
        }
    }

    private static func pNumber(_ p: Double) -> String {
        String(ExperimentWording.pValue(p).dropFirst(2)).replacingOccurrences(of: "= ", with: "")
    }

    private static func detectable(_ comparison: ExperimentComparison) -> String {
        comparison.minimumDetectableEffect.map { ExperimentWording.points($0) + " points" }
            ?? (comparison.difference == nil ? "" : "none")
    }

    private static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
