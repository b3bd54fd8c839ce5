/// One recipient's place in an experiment: the holdout's and the waiting's (they have no delivery yet). A test's
/// recipient's intake names its variant in its delivery instead (``NewDelivery/variant``); a `.test` place is
/// still kept and counted as before.
public struct ExperimentRecipient: Sendable, Hashable {
    /// The device token, lowercase hex.
    public var token: String
    /// The variant's name; `nil` for the holdout and the waiting.
    public var variant: String?
    /// Where it is.
    public var phase: ExperimentPhase
    /// A waiting recipient's own template data (JSON), rendered with the rolled-out variant later.
    public var data: [UInt8]?

    /// A recipient with every field given.
    public init(token: String, variant: String?, phase: ExperimentPhase, data: [UInt8]? = nil) {
        self.token = token
        self.variant = variant
        self.phase = phase
        self.data = data
    }
}
