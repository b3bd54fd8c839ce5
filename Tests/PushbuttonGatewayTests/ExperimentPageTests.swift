import Foundation
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// The console's experiment page, rendered in-process: names escaped, every interval and the holdout drawn where
/// their numbers say, the decision in words, and no provisional winner while testing.
struct ExperimentPageTests {
    static let hostile = #"<script>alert("B")</script>&'"#

    static func analysis(holdout: Bool = true) -> ExperimentAnalysis {
        ExperimentStatistics.analyze(
            control: VariantCounts(name: "A", trials: 5000, successes: 250),
            treatments: [
                VariantCounts(name: hostile, trials: 5000, successes: 330),
                VariantCounts(name: "C", trials: 5000, successes: 240),
            ],
            holdout: holdout ? VariantCounts(name: "holdout", trials: 1000, successes: 20) : nil,
            plannedTrialsPerVariant: 4000, metric: "button:add_to_cart")
    }

    static let date = Date(timeIntervalSince1970: 1_796_306_400)  // 2026-12-03 14:00 UTC

    @Test func namesAreEscapedEverywhere() {
        let analysis = Self.analysis()
        let report = ExperimentReport(
            campaign: "c_<x>", analysis: analysis, phase: .rolledOut(at: Self.date),
            verdict: analysis.verdict(defaultVariant: "A"), defaultVariant: "A", remainingShare: 80,
            labels: [Self.hostile: "shop_<buy>"])
        let html = ExperimentPage.content(report).text
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(&quot;B&quot;)&lt;/script&gt;&amp;&#39;"))
        #expect(html.contains("c_&lt;x&gt;") && html.contains("shop_&lt;buy&gt;"))
        #expect(!html.contains("c_<x>") && !html.contains("shop_<buy>"))
    }

    @Test func everyIntervalAndTheHoldoutAreDrawnAtTheirRates() throws {
        let analysis = Self.analysis()
        let svg = ExperimentChart.rates(analysis).text
        #expect(svg.components(separatedBy: "<g class=\"interval\"").count - 1 == 3)
        for variant in analysis.variants {
            let interval = try #require(variant.interval)
            #expect(
                svg.contains(
                    "data-lower=\"\(ExperimentChart.fraction(interval.lower))\" "
                        + "data-upper=\"\(ExperimentChart.fraction(interval.upper))\""))
        }
        #expect(svg.contains("<g class=\"holdout\" data-rate=\"0.020000\""))
        #expect(svg.contains("holdout 2.0%"))
        #expect(svg.contains("<desc id=\"chart-experiment-desc\">A: 5.0% (4.4% to 5.6%)"))
        // Whiskers lie inside the plot and in order: lower end left of the upper end.
        let lines = svg.components(separatedBy: "<line x1=\"").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(lines.allSatisfy { (140...490).contains($0) })
        #expect(!ExperimentChart.rates(Self.analysis(holdout: false)).text.contains("class=\"holdout\""))
    }

    @Test func theDecisionSentenceAndTheTable() {
        let analysis = Self.analysis()
        let verdict = analysis.verdict(defaultVariant: "A")
        #expect(verdict.winner == Self.hostile)
        let report = ExperimentReport(
            campaign: "c_1", analysis: analysis, phase: .rolledOut(at: Self.date), verdict: verdict,
            defaultVariant: "A", remainingShare: 80)
        let sentence = ExperimentPage.sentence(report)
        #expect(
            sentence.hasPrefix(
                "\(Self.hostile): +1.6 points on 'add_to_cart' (95% CI +0.7 to +2.5), p = 0.001 after Holm"))
        #expect(sentence.hasSuffix(" — \(Self.hostile) goes out to the remaining 80%, sent from 2026-12-03 14:00 UTC."))
        #expect(ExperimentPage.state(report) == "decided at 2026-12-03 14:00 UTC, rolled out")
        let html = ExperimentPage.content(report).text
        #expect(html.contains("<th scope=\"col\" class=\"num\">p after Holm</th>"))
        #expect(html.contains("<tr data-variant=\"A\"><th scope=\"row\">A (control)</th>"))
        #expect(html.contains("<tr data-variant=\"holdout\"><th scope=\"row\">holdout (holdout)</th>"))
        #expect(
            html.contains(
                "<td class=\"num\">5,000</td><td class=\"num\">330</td><td class=\"num\">6.6% (5.9% – 7.3%)</td>"))
        #expect(html.contains("Planned: 4,000 deliveries per variant; the smallest has 5,000 (reached)."))
    }

    @Test func whileTestingThereIsNoProvisionalWinner() {
        let analysis = Self.analysis()
        let report = ExperimentReport(
            campaign: "c_1", analysis: analysis, phase: .testing(until: Self.date), verdict: nil,
            defaultVariant: "A", remainingShare: 80)
        let html = ExperimentPage.content(report).text
        #expect(ExperimentPage.state(report) == "testing until 2026-12-03 14:00 UTC")
        #expect(html.contains("No decision yet: the experiment decides once, at 2026-12-03 14:00 UTC"))
        #expect(!html.contains("goes out"))
        let empty = ExperimentStatistics.analyze(
            control: VariantCounts(name: "A", trials: 0, successes: 0),
            treatments: [VariantCounts(name: "B", trials: 0, successes: 0)], holdout: nil, plannedTrialsPerVariant: nil)
        let blank = ExperimentPage.content(
            ExperimentReport(
                campaign: "c_2", analysis: empty, phase: .testing(until: nil), verdict: nil, defaultVariant: "A"))
        #expect(blank.text.contains("no deliveries yet of 0") && blank.text.contains("no trials to B and A yet"))
    }
}
