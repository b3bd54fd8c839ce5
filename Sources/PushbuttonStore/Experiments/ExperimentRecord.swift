import Foundation

/// A campaign's experiment as stored: its variants, rule and state.
public struct ExperimentRecord: Sendable, Hashable {
    /// The campaign's id.
    public var campaignID: String
    /// The campaign's app.
    public var app: String
    /// The variants' names, in the order the campaign gave them.
    public var variants: [String]
    /// The variant the others are compared with.
    public var control: String
    /// What is rolled out when no variant wins significantly.
    public var defaultVariant: String
    /// `button:<id>`, `any_button`, `body` or `dismiss`; `nil` without a test phase.
    public var metric: String?
    /// Where the experiment is.
    public var state: ExperimentState
    /// When the decision is due (a test phase only).
    public var decideAfter: Date?
    /// The planned sample per variant, when the campaign gave it (the decision may then come early).
    public var plannedTrials: Int?
    /// When it was decided.
    public var decidedAt: Date?
    /// The variant rolled out to the rest.
    public var rolledOut: String?
    /// The verdict and analysis as decided (JSON), kept as they were.
    public var verdict: [UInt8]?

    /// A record with every field given.
    public init(
        campaignID: String, app: String, variants: [String], control: String, defaultVariant: String,
        metric: String?, state: ExperimentState, decideAfter: Date?, plannedTrials: Int? = nil,
        decidedAt: Date? = nil, rolledOut: String? = nil, verdict: [UInt8]? = nil
    ) {
        self.campaignID = campaignID
        self.app = app
        self.variants = variants
        self.control = control
        self.defaultVariant = defaultVariant
        self.metric = metric
        self.state = state
        self.decideAfter = decideAfter
        self.plannedTrials = plannedTrials
        self.decidedAt = decidedAt
        self.rolledOut = rolledOut
        self.verdict = verdict
    }
}
