import Foundation

/// The statistics of an A/B experiment on notifications: rates with Wilson intervals, each treatment against the
/// control (Newcombe's interval of the difference; the pooled z-test, or Fisher's exact test when an expected
/// count is under 5), Holm's correction with several treatments, the minimum detectable effect, and the sample
/// size to plan. Foundation only; checked against SciPy by `scripts/experiment_stats_check.py`.
enum ExperimentStatistics {
    /// The power every minimum detectable effect is computed at.
    static let power = 0.8

    /// The analysis of one metric's counts. `confidence` sets every interval and α = 1 − confidence;
    /// `metric` only labels the result (the verdict's sentence names it).
    static func analyze(
        control: VariantCounts, treatments: [VariantCounts], holdout: VariantCounts?, plannedTrialsPerVariant: Int?,
        confidence: Double = 0.95, metric: String? = nil, trialUnit: String = "deliveries"
    ) -> ExperimentAnalysis {
        let confidence = confidence.isFinite && confidence > 0 && confidence < 1 ? confidence : 0.95
        let alpha = 1 - confidence
        let z = NormalDistribution.quantile(1 - alpha / 2)
        let arms = [control] + treatments
        let variants = arms.map { VariantAnalysis($0, z: z) }
        var comparisons = treatments.map { compare($0, with: control, z: z, alpha: alpha / Double(treatments.count)) }
        let adjusted = ProportionTests.holm(comparisons.map { $0.pValue ?? 1 })
        for index in comparisons.indices where comparisons[index].pValue != nil {
            comparisons[index].pValueAdjusted = adjusted[index]
        }
        let smallest = arms.map(\.trials).min() ?? 0
        return ExperimentAnalysis(
            metric: metric, trialUnit: trialUnit, confidence: confidence, alpha: alpha, control: control.name,
            variants: variants, holdout: holdout.map { VariantAnalysis($0, z: z) }, comparisons: comparisons,
            correction: treatments.count > 1 ? "holm" : "none", plannedTrialsPerVariant: plannedTrialsPerVariant,
            plannedSampleReached: plannedTrialsPerVariant.map { smallest >= $0 } ?? true, smallestArmTrials: smallest)
    }

    /// One treatment against the control. `alpha` is the level the minimum detectable effect is computed at
    /// (α divided by the number of comparisons).
    static func compare(_ treatment: VariantCounts, with control: VariantCounts, z: Double, alpha: Double)
        -> ExperimentComparison
    {
        var comparison = ExperimentComparison(variant: treatment.name, control: control.name, test: .none)
        guard consistent(treatment), consistent(control) else {
            comparison.note = "counts are inconsistent"
            return comparison
        }
        guard treatment.trials > 0, control.trials > 0 else {
            let empty = [treatment, control].filter { $0.trials == 0 }.map(\.name).joined(separator: " and ")
            comparison.note = "no trials to \(empty) yet"
            return comparison
        }
        let treatmentRate = Double(treatment.successes) / Double(treatment.trials)
        let controlRate = Double(control.successes) / Double(control.trials)
        comparison.difference = treatmentRate - controlRate
        comparison.interval = ProportionTests.newcombe(treatment, minus: control, z: z)
        if ProportionTests.smallestExpectedCount(treatment, control) < 5 {
            comparison.test = .fisherExact
            comparison.pValue = ProportionTests.fisherExactTwoSided(treatment, control)
        } else if let statistic = ProportionTests.pooledZ(treatment, control) {
            comparison.test = .zTestPooled
            comparison.z = statistic
            comparison.pValue = NormalDistribution.twoSidedPValue(statistic)
        }
        comparison.pValueAdjusted = comparison.pValue
        comparison.minimumDetectableEffect = ProportionTests.minimumDetectableEffect(
            baseline: controlRate, n1: control.trials, n2: treatment.trials, alpha: alpha, power: power)
        if comparison.minimumDetectableEffect == nil {
            comparison.note =
                controlRate >= 1
                ? "the control's rate is 100%: no rise is possible"
                : "no rise up to 100% is detectable with these arm sizes"
        }
        return comparison
    }

    /// The trials each variant needs so a two-sided test detects a rise of `minimumDetectableEffect` (a fraction:
    /// 0.02 is 2 points) over `baselineRate` with `power`. With more than two variants, α is divided by the number
    /// of comparisons (variants − 1): Bonferroni, the strictest step of Holm's correction the analysis applies,
    /// so the plan is safe whichever treatment wins. Fleiss' formula without continuity correction:
    /// n = (z₁₋α/2·√(2p̄(1−p̄)) + z_power·√(p₁(1−p₁) + p₂(1−p₂)))² / δ². Returns `Int.max` (never reached) when
    /// the effect is not positive or the inputs are not rates; callers should reject those with a 422 first.
    static func plannedTrialsPerVariant(
        baselineRate: Double, minimumDetectableEffect: Double, variants: Int, power: Double = 0.8,
        alpha: Double = 0.05
    ) -> Int {
        guard baselineRate.isFinite, minimumDetectableEffect.isFinite, baselineRate >= 0, baselineRate < 1,
            minimumDetectableEffect > 0, power > 0, power < 1, alpha > 0, alpha < 1
        else { return Int.max }
        let comparisons = Double(max(1, variants - 1))
        let zAlpha = NormalDistribution.quantile(1 - alpha / comparisons / 2)
        let zBeta = NormalDistribution.quantile(power)
        let p1 = baselineRate
        let p2 = min(1, baselineRate + minimumDetectableEffect)
        let delta = p2 - p1
        let pooled = (p1 + p2) / 2
        let root =
            zAlpha * (2 * pooled * (1 - pooled)).squareRoot() + zBeta * (p1 * (1 - p1) + p2 * (1 - p2)).squareRoot()
        let n = (root * root / (delta * delta)).rounded(.up)
        return n.isFinite && n < Double(Int.max) ? max(1, Int(n)) : Int.max
    }

    private static func consistent(_ counts: VariantCounts) -> Bool {
        counts.trials >= 0 && counts.successes >= 0 && counts.successes <= counts.trials
    }
}
