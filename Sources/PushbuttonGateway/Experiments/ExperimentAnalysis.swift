import Foundation

/// An experiment's statistics for one metric: every arm's rate with its Wilson interval, each treatment against
/// the control, the multiple-comparison correction, and whether the planned sample is in. The JSON that
/// `GET /v1/campaigns/{id}/experiment` returns under "analysis" (snake_case keys; a number that cannot be
/// computed is `null`, with a note saying why). Decodable too, so the analysis stored with a decision reads back
/// for the console's page.
struct ExperimentAnalysis: Sendable, Equatable, Codable {
    /// The metric the counts are of (`button:<action id>`, `any_button`, `body`, `dismiss`), when known.
    var metric: String?
    /// What a trial is, in words, plural: "deliveries", or "displays" where display receipts exist.
    var trialUnit: String
    /// The confidence level of every interval (0.95).
    var confidence: Double
    /// The significance level, 1 − confidence.
    var alpha: Double
    /// The control's name.
    var control: String
    /// The control first, then the treatments in the order given.
    var variants: [VariantAnalysis]
    /// The holdout (recipients sent nothing), when the experiment has one.
    var holdout: VariantAnalysis?
    /// Each treatment against the control, in the order of `variants`.
    var comparisons: [ExperimentComparison]
    /// The correction of p-values for several comparisons: "holm" with two or more treatments, else "none".
    var correction: String
    /// The trials each arm needs, when the experiment planned a sample size.
    var plannedTrialsPerVariant: Int?
    /// Whether every arm (control and treatments) has its planned trials; `true` when nothing was planned.
    var plannedSampleReached: Bool
    /// The trials of the smallest arm: what the planned sample is compared with.
    var smallestArmTrials: Int

    enum CodingKeys: String, CodingKey {
        case metric
        case trialUnit = "trial_unit"
        case confidence, alpha, control, variants, holdout, comparisons, correction
        case plannedTrialsPerVariant = "planned_trials_per_variant"
        case plannedSampleReached = "planned_sample_reached"
        case smallestArmTrials = "smallest_arm_trials"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(metric, forKey: .metric)
        try container.encode(trialUnit, forKey: .trialUnit)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(alpha, forKey: .alpha)
        try container.encode(control, forKey: .control)
        try container.encode(variants, forKey: .variants)
        try container.encode(holdout, forKey: .holdout)
        try container.encode(comparisons, forKey: .comparisons)
        try container.encode(correction, forKey: .correction)
        try container.encode(plannedTrialsPerVariant, forKey: .plannedTrialsPerVariant)
        try container.encode(plannedSampleReached, forKey: .plannedSampleReached)
        try container.encode(smallestArmTrials, forKey: .smallestArmTrials)
    }

    /// The comparison of the treatment named `name` with the control.
    func comparison(of name: String) -> ExperimentComparison? {
        comparisons.first { $0.variant == name }
    }
}
