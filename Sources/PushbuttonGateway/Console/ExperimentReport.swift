import Foundation

/// What the console's experiment page shows: a campaign's experiment, its analysis, where it stands (testing,
/// decided, rolled out) and, once decided, the verdict. Built by the gateway from the store; rendered by
/// ``ExperimentPage``.
struct ExperimentReport: Sendable, Equatable {
    /// Where the experiment stands.
    enum Phase: Sendable, Equatable {
        /// The test phase runs; the decision comes at `until` (or earlier when the planned sample is in).
        case testing(until: Date?)
        /// Decided at the date; the winner (or the default) is being sent to the rest.
        case decided(at: Date)
        /// Decided, and the rest of the audience has been sent the rolled-out variant.
        case rolledOut(at: Date)
        /// No test phase: every recipient got a variant at once; nothing is decided or rolled out.
        case observing
    }

    /// The campaign's id.
    var campaign: String
    /// The statistics of the experiment's metric (its `metric` names the metric).
    var analysis: ExperimentAnalysis
    /// Where it stands.
    var phase: Phase
    /// The stored decision, once made (`nil` while testing: the page shows no provisional winner).
    var verdict: ExperimentVerdict?
    /// The variant rolled out when nothing wins.
    var defaultVariant: String
    /// The percent of the audience left for the roll-out (100 − test share), when there is a test phase.
    var remainingShare: Int?
    /// A label per variant name (its category or title), shown beside the name.
    var labels: [String: String] = [:]
}
