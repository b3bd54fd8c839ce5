/// Where an experiment is.
public enum ExperimentState: String, Sendable, Hashable, CaseIterable {
    /// No test phase: every recipient gets its own variant; nothing is decided.
    case running
    /// The test group was sent; the rest waits for `decide_after`.
    case testing
    /// One process claimed the decision and is making it.
    case deciding
    /// Decided; the waiting recipients are being queued with the rolled-out variant.
    case rollingOut = "rolling_out"
    /// Decided and every waiting recipient queued.
    case rolledOut = "rolled_out"
}
