import Foundation

/// The formulas behind an experiment's analysis, each a pure function of counts. Results that cannot be
/// computed (no trials) are `nil`, never NaN or infinity, so the JSON never holds a number JSON cannot carry.
enum ProportionTests {
    /// Wilson's score interval for `successes` of `trials` (Wilson 1927): unlike the textbook p ± z·SE it never
    /// leaves [0, 1] and does not collapse to a point at 0 or all successes, so 0 of 20 still says "up to 16%".
    static func wilson(successes: Int, trials: Int, z: Double) -> ProportionInterval? {
        guard trials > 0, successes >= 0, successes <= trials, z.isFinite else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let half = z / denominator * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        // At 0 and all successes the bound is exactly 0 or 1; rounding must not put it a hair outside.
        let lower = successes == 0 ? 0 : max(0, center - half)
        let upper = successes == trials ? 1 : min(1, center + half)
        return ProportionInterval(lower: lower, upper: upper)
    }

    /// Newcombe's hybrid score interval for the difference p₁ − p₂ (Newcombe 1998, method 10): it combines the
    /// two arms' Wilson intervals, so it keeps their good coverage at small counts and near 0, where the Wald
    /// interval of the difference is too narrow.
    static func newcombe(_ first: VariantCounts, minus second: VariantCounts, z: Double) -> ProportionInterval? {
        guard let one = wilson(successes: first.successes, trials: first.trials, z: z),
            let two = wilson(successes: second.successes, trials: second.trials, z: z)
        else { return nil }
        let p1 = Double(first.successes) / Double(first.trials)
        let p2 = Double(second.successes) / Double(second.trials)
        let difference = p1 - p2
        let lower =
            difference - ((p1 - one.lower) * (p1 - one.lower) + (two.upper - p2) * (two.upper - p2)).squareRoot()
        let upper =
            difference + ((one.upper - p1) * (one.upper - p1) + (p2 - two.lower) * (p2 - two.lower)).squareRoot()
        return ProportionInterval(lower: max(-1, lower), upper: min(1, upper))
    }

    /// The two-proportion z statistic with the pooled standard error; `nil` when the pooled rate is 0 or 1
    /// (no variance: the arms cannot differ, and the exact test answers instead).
    static func pooledZ(_ first: VariantCounts, _ second: VariantCounts) -> Double? {
        guard first.trials > 0, second.trials > 0 else { return nil }
        let n1 = Double(first.trials)
        let n2 = Double(second.trials)
        let pooled = Double(first.successes + second.successes) / (n1 + n2)
        let variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
        guard variance > 0 else { return nil }
        return (Double(first.successes) / n1 - Double(second.successes) / n2) / variance.squareRoot()
    }

    /// The smallest expected count of the 2×2 table (arm × tapped/not) under "no difference": the z-test's
    /// normal approximation is trusted only when every expected count is at least 5 (Cochran's rule).
    static func smallestExpectedCount(_ first: VariantCounts, _ second: VariantCounts) -> Double {
        let total = Double(first.trials + second.trials)
        guard total > 0 else { return 0 }
        let successes = Double(first.successes + second.successes)
        let smallerRow = Double(min(first.trials, second.trials))
        return smallerRow * min(successes, total - successes) / total
    }

    /// Fisher's exact test, two-sided: the probability, given both arms' sizes and the total taps, of every
    /// table at most as likely as the one observed (the definition R's `fisher.test` and SciPy's `fisher_exact`
    /// use). Probabilities from log-factorials (`lgamma`), so large arms do not overflow.
    static func fisherExactTwoSided(_ first: VariantCounts, _ second: VariantCounts) -> Double? {
        guard first.trials > 0, second.trials > 0 else { return nil }
        let n1 = first.trials
        let n2 = second.trials
        let taps = first.successes + second.successes
        func logChoose(_ n: Int, _ k: Int) -> Double {
            lgamma(Double(n) + 1) - lgamma(Double(k) + 1) - lgamma(Double(n - k) + 1)
        }
        let logTotal = logChoose(n1 + n2, taps)
        func logProbability(_ x: Int) -> Double { logChoose(n1, x) + logChoose(n2, taps - x) - logTotal }
        let observed = logProbability(first.successes)
        // R's relative tolerance: tables as likely as the observed one up to rounding count as "as likely".
        let threshold = observed + log1p(1e-7)
        var p = 0.0
        for x in max(0, taps - n2)...min(n1, taps) {
            let logP = logProbability(x)
            if logP <= threshold { p += exp(logP) }
        }
        return min(1, p)
    }

    /// Holm's step-down adjustment (Holm 1979) of `pValues` (m comparisons): the smallest is multiplied by m,
    /// the next by m − 1, …, each kept at least as large as the one before and at most 1. It controls the chance
    /// of any false "winner" at α across all comparisons, and is never less powerful than Bonferroni.
    static func holm(_ pValues: [Double]) -> [Double] {
        let m = pValues.count
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(m - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }

    /// The sample-size equation for a two-sided two-proportion test without continuity correction (Fleiss,
    /// Levin and Paik, *Statistical Methods for Rates and Proportions*, 3rd ed., §4.2): the power-relevant
    /// margin `δ − z_α·SE₀ − z_β·SE₁`, positive when arms of `n1` and `n2` detect a rise from `baseline` by `δ`.
    static func powerMargin(baseline: Double, delta: Double, n1: Double, n2: Double, zAlpha: Double, zBeta: Double)
        -> Double
    {
        let p2 = baseline + delta
        let pooled = (n1 * baseline + n2 * p2) / (n1 + n2)
        let null = (pooled * (1 - pooled) * (1 / n1 + 1 / n2)).squareRoot()
        let alternative = (baseline * (1 - baseline) / n1 + p2 * (1 - p2) / n2).squareRoot()
        return delta - zAlpha * null - zBeta * alternative
    }

    /// The smallest rise over `baseline` that arms of `n1` and `n2` trials detect with `power` at two-sided
    /// level `alpha` (bisection on ``powerMargin``); `nil` when even a rise to 100% would not be detected.
    static func minimumDetectableEffect(baseline: Double, n1: Int, n2: Int, alpha: Double, power: Double) -> Double? {
        guard n1 > 0, n2 > 0, baseline >= 0, baseline < 1, alpha > 0, alpha < 1, power > 0, power < 1 else {
            return nil
        }
        let zAlpha = NormalDistribution.quantile(1 - alpha / 2)
        let zBeta = NormalDistribution.quantile(power)
        func margin(_ delta: Double) -> Double {
            powerMargin(
                baseline: baseline, delta: delta, n1: Double(n1), n2: Double(n2), zAlpha: zAlpha, zBeta: zBeta)
        }
        var high = 1 - baseline
        guard margin(high) >= 0 else { return nil }
        var low = 0.0
        // 200 halvings reach the bottom of a Double's precision; the margin rises with δ over the range used.
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if middle == low || middle == high { break }
            if margin(middle) >= 0 { high = middle } else { low = middle }
        }
        return high
    }
}
