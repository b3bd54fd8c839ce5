/// Where one recipient of an experiment is.
public enum ExperimentPhase: String, Sendable, Hashable, CaseIterable {
    /// Sent its own variant (the test group, or everyone when the experiment has no test phase).
    case test
    /// In the holdout: sent nothing, counted as the baseline.
    case holdout
    /// Outside the test group: waits for the decision.
    case waiting
    /// Sent the rolled-out variant after the decision.
    case rolledOut = "rolled_out"
}
