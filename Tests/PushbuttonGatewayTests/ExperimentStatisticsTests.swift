import Foundation
import Testing

@testable import PushbuttonGateway

/// The experiment statistics against an independent implementation (SciPy, through the fixture
/// `scripts/experiment_stats_check.py` writes), against published worked examples, and at the edges (empty arms,
/// 0 and all successes, 10⁹ trials), plus the decision rule and its sentences.
struct ExperimentStatisticsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/experiment-stats-expected.json")

    struct Fixture: Decodable {
        struct Arm: Decodable {
            var name: String
            var trials: Int
            var successes: Int
            var counts: VariantCounts { VariantCounts(name: name, trials: trials, successes: successes) }
        }
        struct Rate: Decodable {
            var name: String
            var rate: Double?
            var lower: Double?
            var upper: Double?
        }
        struct Comparison: Decodable {
            var variant: String
            var difference: Double?
            var lower: Double?
            var upper: Double?
            var test: String
            var p_value: Double?
            var p_value_adjusted: Double?
            var minimum_detectable_effect: Double?
        }
        struct Expected: Decodable {
            var variants: [Rate]
            var holdout: Rate?
            var comparisons: [Comparison]
        }
        struct Case: Decodable {
            var name: String
            var confidence: Double
            var control: Arm
            var treatments: [Arm]
            var holdout: Arm?
            var expected: Expected
        }
        struct Plan: Decodable {
            var baseline: Double
            var minimum_detectable_effect: Double
            var variants: Int
            var power: Double
            var alpha: Double
            var expected: Int
        }
        struct Quantile: Decodable {
            var p: Double
            var z: Double
        }
        var cases: [Case]
        var plans: [Plan]
        var quantiles: [Quantile]
    }

    static func load() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: fixture))
    }

    /// Equal to 4 significant digits (relative 5·10⁻⁵), or both within 10⁻¹² of zero; both missing counts as equal.
    static func close(_ ours: Double?, _ theirs: Double?) -> Bool {
        guard let ours, let theirs else { return ours == nil && theirs == nil }
        return abs(ours - theirs) <= max(5e-5 * max(abs(ours), abs(theirs)), 1e-12)
    }

    @Test func everyCaseMatchesSciPyToFourSignificantDigits() throws {
        let fixture = try Self.load()
        #expect(fixture.cases.count >= 20)
        for item in fixture.cases {
            let analysis = ExperimentStatistics.analyze(
                control: item.control.counts, treatments: item.treatments.map(\.counts),
                holdout: item.holdout?.counts, plannedTrialsPerVariant: nil, confidence: item.confidence)
            let arms = analysis.variants + (analysis.holdout.map { [$0] } ?? [])
            let expectedArms = item.expected.variants + (item.expected.holdout.map { [$0] } ?? [])
            #expect(arms.map(\.name) == expectedArms.map(\.name), "\(item.name)")
            for (ours, theirs) in zip(arms, expectedArms) {
                let where_ = "\(item.name), \(ours.name)"
                #expect(Self.close(ours.rate, theirs.rate), "rate, \(where_): \(String(describing: ours.rate))")
                #expect(Self.close(ours.interval?.lower, theirs.lower), "Wilson lower, \(where_)")
                #expect(Self.close(ours.interval?.upper, theirs.upper), "Wilson upper, \(where_)")
            }
            #expect(analysis.comparisons.count == item.expected.comparisons.count, "\(item.name)")
            #expect(analysis.correction == (item.treatments.count > 1 ? "holm" : "none"))
            for (ours, theirs) in zip(analysis.comparisons, item.expected.comparisons) {
                let where_ = "\(item.name), \(ours.variant) vs \(ours.control)"
                #expect(ours.variant == theirs.variant, "\(where_)")
                #expect(ours.test.rawValue == theirs.test, "test, \(where_)")
                #expect(Self.close(ours.difference, theirs.difference), "difference, \(where_)")
                #expect(
                    Self.close(ours.interval?.lower, theirs.lower),
                    "Newcombe lower, \(where_): \(String(describing: ours.interval?.lower)) vs \(String(describing: theirs.lower))"
                )
                #expect(Self.close(ours.interval?.upper, theirs.upper), "Newcombe upper, \(where_)")
                #expect(
                    Self.close(ours.pValue, theirs.p_value),
                    "p, \(where_): \(String(describing: ours.pValue)) vs \(String(describing: theirs.p_value))")
                #expect(Self.close(ours.pValueAdjusted, theirs.p_value_adjusted), "Holm p, \(where_)")
                #expect(
                    Self.close(ours.minimumDetectableEffect, theirs.minimum_detectable_effect),
                    "MDE, \(where_): \(String(describing: ours.minimumDetectableEffect)) vs \(String(describing: theirs.minimum_detectable_effect))"
                )
            }
        }
    }

    @Test func plannedSamplesAndQuantilesMatchSciPy() throws {
        let fixture = try Self.load()
        for plan in fixture.plans {
            #expect(
                ExperimentStatistics.plannedTrialsPerVariant(
                    baselineRate: plan.baseline, minimumDetectableEffect: plan.minimum_detectable_effect,
                    variants: plan.variants, power: plan.power, alpha: plan.alpha) == plan.expected,
                "\(plan)")
        }
        for quantile in fixture.quantiles {
            #expect(Self.close(NormalDistribution.quantile(quantile.p), quantile.z), "quantile \(quantile.p)")
        }
    }

    /// Published worked examples: Newcombe (1998), "Interval estimation for the difference between independent
    /// proportions: comparison of eleven methods", Statistics in Medicine 17:873–890, Table II, method 10;
    /// Newcombe (1998), "Two-sided confidence intervals for the single proportion: comparison of seven methods",
    /// Statistics in Medicine 17:857–872, Table I, the Wilson score method; Fisher's lady tasting tea (The Design
    /// of Experiments, 1935, §2): 3 of 4 cups right, two-sided p = 0.4857. All to the 4 decimals printed.
    @Test func publishedWorkedExamples() {
        func rounded(_ value: Double?) -> Double? { value.map { ($0 * 10_000).rounded() / 10_000 } }
        let differences: [(Int, Int, Int, Int, Double, Double)] = [
            (56, 70, 48, 80, 0.0524, 0.3339), (9, 10, 3, 10, 0.1705, 0.8090), (5, 56, 0, 29, -0.0381, 0.1926),
            (0, 10, 0, 20, -0.1611, 0.2775), (0, 10, 0, 10, -0.2775, 0.2775), (10, 10, 0, 20, 0.6791, 1.0000),
        ]
        let z = NormalDistribution.quantile(0.975)
        for (x1, n1, x2, n2, lower, upper) in differences {
            let interval = ProportionTests.newcombe(
                VariantCounts(name: "1", trials: n1, successes: x1),
                minus: VariantCounts(name: "2", trials: n2, successes: x2),
                z: z)
            #expect(rounded(interval?.lower) == lower, "\(x1)/\(n1) − \(x2)/\(n2)")
            #expect(rounded(interval?.upper) == upper, "\(x1)/\(n1) − \(x2)/\(n2)")
        }
        let singles: [(Int, Int, Double, Double)] = [
            (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0000, 0.1611), (1, 29, 0.0061, 0.1718),
        ]
        for (x, n, lower, upper) in singles {
            let interval = ProportionTests.wilson(successes: x, trials: n, z: z)
            #expect(rounded(interval?.lower) == lower, "\(x)/\(n)")
            #expect(rounded(interval?.upper) == upper, "\(x)/\(n)")
        }
        let tea = ProportionTests.fisherExactTwoSided(
            VariantCounts(name: "milk first", trials: 4, successes: 3),
            VariantCounts(name: "tea first", trials: 4, successes: 1))
        #expect(rounded(tea) == 0.4857)
        // Fleiss, Levin and Paik's sample size for 10% against 15% (α = 0.05 two-sided, 80% power, no continuity
        // correction): 686 per group.
        #expect(
            ExperimentStatistics.plannedTrialsPerVariant(baselineRate: 0.10, minimumDetectableEffect: 0.05, variants: 2)
                == 686)
    }

    @Test func edgeCasesGiveNullsWithReasonsNeverNaN() throws {
        let analysis = ExperimentStatistics.analyze(
            control: VariantCounts(name: "A", trials: 0, successes: 0),
            treatments: [
                VariantCounts(name: "B", trials: 1_000_000_000, successes: 1_000_000_000),
                VariantCounts(name: "C", trials: 5, successes: 9),
            ],
            holdout: VariantCounts(name: "holdout", trials: 0, successes: 0), plannedTrialsPerVariant: 100)
        #expect(analysis.variants[0].rate == nil && analysis.variants[0].note == "no trials yet")
        #expect(analysis.variants[1].interval?.upper == 1)
        #expect(analysis.variants[2].rate == nil && analysis.variants[2].note?.contains("inconsistent") == true)
        #expect(analysis.comparisons.allSatisfy { $0.pValue == nil && $0.test == .none && $0.note != nil })
        let json = String(decoding: try JSONEncoder().encode(analysis), as: UTF8.self)
        #expect(!json.contains("nan") && !json.contains("inf"))
        #expect(json.contains("\"p_value\":null") && json.contains("\"planned_trials_per_variant\":100"))
        let verdict = analysis.verdict(defaultVariant: "A")
        #expect(
            verdict
                == ExperimentVerdict(
                    winner: nil, rolledOut: "A", significant: false, reason: "not enough data: no deliveries to A yet"))

        // Identical huge arms: p = 1, a finite tiny minimum detectable effect.
        let huge = VariantCounts(name: "A", trials: 1_000_000_000, successes: 31_000_000)
        let same = ExperimentStatistics.analyze(
            control: huge, treatments: [VariantCounts(name: "B", trials: huge.trials, successes: huge.successes)],
            holdout: nil, plannedTrialsPerVariant: nil)
        #expect(same.comparisons[0].pValue == 1 && same.comparisons[0].difference == 0)
        #expect((same.comparisons[0].minimumDetectableEffect ?? 1) < 0.0001)
        #expect(
            ExperimentStatistics.plannedTrialsPerVariant(baselineRate: 0.1, minimumDetectableEffect: 0, variants: 2)
                == Int.max)
        #expect(
            ExperimentStatistics.plannedTrialsPerVariant(baselineRate: .nan, minimumDetectableEffect: 0.1, variants: 2)
                == Int.max)
    }

    @Test func theVerdictNamesAWinnerOnlyWhenSignificantAndThePlannedSampleIsIn() {
        let control = VariantCounts(name: "A", trials: 5000, successes: 250)
        let better = VariantCounts(name: "B", trials: 5000, successes: 330)
        func analyze(_ treatments: [VariantCounts], planned: Int? = 4000) -> ExperimentAnalysis {
            ExperimentStatistics.analyze(
                control: control, treatments: treatments, holdout: nil, plannedTrialsPerVariant: planned,
                metric: "button:add_to_cart")
        }
        let win = analyze([better]).verdict(defaultVariant: "A")
        #expect(win.winner == "B" && win.rolledOut == "B" && win.significant)
        #expect(
            win.reason.hasPrefix("B: +1.6 points on 'add_to_cart' (95% CI +0.7 to +2.5), p < 0.001"), "\(win.reason)")

        let early = analyze([better], planned: 6000).verdict(defaultVariant: "A")
        #expect(
            early
                == ExperimentVerdict(
                    winner: nil, rolledOut: "A", significant: false,
                    reason: "not enough data: 5,000 of 6,000 planned deliveries per variant"))

        let level = analyze([VariantCounts(name: "B", trials: 5000, successes: 262)]).verdict(defaultVariant: "A")
        #expect(level.winner == nil && level.rolledOut == "A")
        #expect(level.reason == "no significant difference (B vs A p = 0.59)", "\(level.reason)")

        let three = analyze([
            VariantCounts(name: "B", trials: 5000, successes: 262),
            VariantCounts(name: "C", trials: 5000, successes: 240),
        ])
        .verdict(defaultVariant: "C")
        #expect(three.rolledOut == "C" && three.reason.hasSuffix(" after Holm)") && three.reason.contains("C vs A p ="))

        // Two significant winners: the higher rate wins; the Holm note is in the sentence.
        let pick = analyze([better, VariantCounts(name: "C", trials: 5000, successes: 360)]).verdict(
            defaultVariant: "A")
        #expect(pick.winner == "C" && pick.reason.contains("after Holm"))

        // Every treatment significantly worse: the control wins.
        let worse = analyze([
            VariantCounts(name: "B", trials: 5000, successes: 150),
            VariantCounts(name: "C", trials: 5000, successes: 160),
        ])
        .verdict(defaultVariant: "B")
        #expect(worse.winner == "A" && worse.rolledOut == "A" && worse.significant)
        #expect(worse.reason.hasPrefix("A: every other variant is significantly worse on 'add_to_cart' (B -2.0 points"))

        // One worse, one level: nothing wins, the default goes out.
        let mixed = analyze([
            VariantCounts(name: "B", trials: 5000, successes: 150),
            VariantCounts(name: "C", trials: 5000, successes: 255),
        ])
        .verdict(defaultVariant: "C")
        #expect(
            mixed.winner == nil && mixed.rolledOut == "C"
                && mixed.reason.hasPrefix("no variant is significantly better than A"))
    }

    @Test func theAnalysisEncodesWithSnakeCaseKeys() throws {
        let analysis = ExperimentStatistics.analyze(
            control: VariantCounts(name: "A", trials: 100, successes: 10),
            treatments: [VariantCounts(name: "B", trials: 100, successes: 20)],
            holdout: VariantCounts(name: "holdout", trials: 50, successes: 1), plannedTrialsPerVariant: 80,
            metric: "any_button")
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(analysis)) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "metric", "trial_unit", "confidence", "alpha", "control", "variants", "holdout", "comparisons",
                "correction", "planned_trials_per_variant", "planned_sample_reached", "smallest_arm_trials",
            ])
        let comparison = try #require((object["comparisons"] as? [[String: Any]])?.first)
        #expect(
            Set(comparison.keys) == [
                "variant", "control", "difference", "interval", "test", "z", "p_value", "p_value_adjusted",
                "minimum_detectable_effect", "note",
            ])
        #expect(comparison["test"] as? String == "z_test_pooled")
        let verdict = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(analysis.verdict(defaultVariant: "A")))
                as? [String: Any])
        #expect(Set(verdict.keys) == ["winner", "rolled_out", "significant", "reason"])
        // What is stored with a decision reads back as it was.
        let decoded = try JSONDecoder().decode(ExperimentAnalysis.self, from: JSONEncoder().encode(analysis))
        #expect(decoded == analysis)
        let decision = analysis.verdict(defaultVariant: "A")
        #expect(try JSONDecoder().decode(ExperimentVerdict.self, from: JSONEncoder().encode(decision)) == decision)
    }

    @Test func wordingOfNumbers() {
        #expect(ExperimentWording.pValue(0.312) == "p = 0.31")
        #expect(ExperimentWording.pValue(0.0021) == "p = 0.002")
        #expect(ExperimentWording.pValue(0.0504) == "p = 0.050")
        #expect(ExperimentWording.pValue(0.0002) == "p < 0.001")
        #expect(ExperimentWording.points(0.031) == "+3.1")
        #expect(ExperimentWording.points(-0.0004) == "0.0")
        #expect(ExperimentWording.count(1_000) == "1,000")
        #expect(ExperimentWording.metric("button:add_to_cart") == "'add_to_cart'")
        #expect(ExperimentWording.confidence(0.95) == "95%")
    }
}
