/// The decision rule, applied once (at `decide_after` or when the planned sample is in; never by peeking).
///
/// - Not enough data (an arm has no trials, or the planned sample is not reached in every arm): no winner.
/// - A treatment wins when its Holm-adjusted p-value is below α and its rate is above the control's. Of several
///   such treatments the one with the highest rate wins (then the smaller adjusted p, then the order given):
///   treatments are not tested against each other, so the pick among winners is by point estimate, and the
///   sentence says only how it beats the control.
/// - The control wins when every treatment is significantly worse than it (adjusted p < α, rate below).
/// - Otherwise nothing wins, and the default variant is rolled out. Never a coin toss.
extension ExperimentAnalysis {
    /// The decision, with `defaultVariant` rolled out when nothing wins.
    func verdict(defaultVariant: String) -> ExperimentVerdict {
        func none(_ reason: String) -> ExperimentVerdict {
            ExperimentVerdict(winner: nil, rolledOut: defaultVariant, significant: false, reason: reason)
        }
        if let empty = variants.first(where: { $0.trials <= 0 }) {
            return none("not enough data: no \(trialUnit) to \(empty.name) yet")
        }
        if let inconsistent = variants.first(where: { $0.rate == nil }) {
            return none("counts of \(inconsistent.name) are inconsistent: \(inconsistent.note ?? "")")
        }
        if let planned = plannedTrialsPerVariant, !plannedSampleReached {
            return none(
                "not enough data: \(ExperimentWording.count(smallestArmTrials)) of "
                    + "\(ExperimentWording.count(planned)) planned \(trialUnit) per variant")
        }
        let significant = comparisons.filter { ($0.pValueAdjusted ?? 1) < alpha }
        let better = significant.filter { ($0.difference ?? 0) > 0 }
        if let best = better.max(by: Self.rankedBelow) {
            return ExperimentVerdict(
                winner: best.variant, rolledOut: best.variant, significant: true,
                reason: "\(best.variant): \(effect(best))")
        }
        let worse = significant.filter { ($0.difference ?? 0) < 0 }
        if !comparisons.isEmpty, worse.count == comparisons.count {
            return ExperimentVerdict(
                winner: control, rolledOut: control, significant: true,
                reason: "\(control): every other variant is significantly worse"
                    + (metric.map { " on \(ExperimentWording.metric($0))" } ?? "") + " ("
                    + worse.map { "\($0.variant) \(effect($0, named: false))" }.joined(separator: "; ") + ")")
        }
        let list = comparisons.map { comparison in
            "\(comparison.variant) vs \(comparison.control) "
                + ExperimentWording.pValue(comparison.pValueAdjusted ?? 1)
        }
        let holm = correction == "holm" ? " after Holm" : ""
        let what = worse.isEmpty ? "no significant difference" : "no variant is significantly better than \(control)"
        return none("\(what) (\(list.joined(separator: ", "))\(holm))")
    }

    /// "+3.1 points on 'add_to_cart' (95% CI +1.2 to +5.0), p = 0.002"; without the metric when `named` is false.
    private func effect(_ comparison: ExperimentComparison, named: Bool = true) -> String {
        var text = ExperimentWording.points(comparison.difference ?? 0) + " points"
        if named, let metric { text += " on \(ExperimentWording.metric(metric))" }
        if let interval = comparison.interval {
            text +=
                " (\(ExperimentWording.confidence(confidence)) CI \(ExperimentWording.points(interval.lower)) to "
                + "\(ExperimentWording.points(interval.upper)))"
        }
        text += ", " + ExperimentWording.pValue(comparison.pValueAdjusted ?? 1)
        if correction == "holm" { text += " after Holm" }
        return text
    }

    /// Orders winning treatments: a higher rate ranks higher, then a smaller adjusted p, then the earlier one.
    private static func rankedBelow(_ left: ExperimentComparison, _ right: ExperimentComparison) -> Bool {
        let leftDifference = left.difference ?? 0
        let rightDifference = right.difference ?? 0
        if leftDifference != rightDifference { return leftDifference < rightDifference }
        return (left.pValueAdjusted ?? 1) > (right.pValueAdjusted ?? 1)
    }
}
