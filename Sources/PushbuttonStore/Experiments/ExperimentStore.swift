import Foundation

/// A campaign's A/B experiment (issue 36) in the store: its recipients' variants and phases, the decision
/// claimed by one process, and the roll-out of the waiting recipients, each page in one transaction.
public protocol ExperimentStore: Sendable {
    /// Stores a campaign with its experiment, its first page's deliveries and every recipient's place (the
    /// holdout and the waiting have no delivery), in one transaction; as ``GatewayStore/enqueue(_:deliveries:idempotency:now:)``
    /// with an idempotency key.
    func enqueue(
        _ spec: NotificationSpec, experiment: ExperimentRecord, deliveries: [NewDelivery],
        recipients: [ExperimentRecipient], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> EnqueueResult

    /// One more page of an experiment's campaign, with its recipients' places, in one transaction; `nil` when
    /// the campaign is unknown, or not open and the key is new.
    func append(
        campaign id: String, deliveries: [NewDelivery], recipients: [ExperimentRecipient],
        idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> PageAppendResult?

    /// The campaign's experiment; `nil` when it has none.
    func experiment(campaign id: String) throws(StoreError) -> ExperimentRecord?

    /// The experiment's counts per variant and phase, in one grouped query (nothing loaded row by row).
    func experimentTallies(campaign id: String, app: String) throws(StoreError) -> [ExperimentTally]

    /// When the next test phase's decision is due, or a claimed one may be taken over (`reclaimAfter` seconds
    /// after its claim was last renewed); `nil` when none waits.
    func nextExperimentDecision(reclaimAfter: TimeInterval) throws(StoreError) -> Date?

    /// Claims decisions to make: test phases whose `decide_after` has come, and decisions or roll-outs another
    /// process claimed more than `reclaimAfter` seconds ago (it died). Each is claimed by one conditional
    /// UPDATE, so across processes one process gets it.
    func claimExperimentDecisions(now: Date, reclaimAfter: TimeInterval, limit: Int) throws(StoreError)
        -> [ExperimentRecord]

    /// Claims one experiment still testing (an early decision once its planned sample is in); `nil` when
    /// another process claimed it first or it is not testing.
    func claimExperimentDecision(campaign id: String, now: Date) throws(StoreError) -> ExperimentRecord?

    /// Experiments still testing that gave a planned sample size (candidates for an early decision).
    func experimentsWithPlannedSample() throws(StoreError) -> [ExperimentRecord]

    /// Stores the decision of a claimed experiment (deciding → rolling out).
    func recordDecision(campaign id: String, rolledOut: String, verdict: [UInt8], now: Date) throws(StoreError)

    /// Up to `limit` waiting recipients after `token` (in token order).
    func waitingRecipients(campaign id: String, after token: String?, limit: Int) throws(StoreError)
        -> [ExperimentRecipient]

    /// Queues `deliveries` (waiting recipients given the rolled-out `variant`) in one transaction: only those
    /// still waiting, which are marked rolled out in the same transaction, so none is queued twice. Returns
    /// how many were queued; `nil` when the campaign is no longer open.
    func rollOut(campaign id: String, variant: String, deliveries: [NewDelivery], now: Date) throws(StoreError)
        -> Int?

    /// Marks the roll-out done (renewing nothing more).
    func finishRollOut(campaign id: String, now: Date) throws(StoreError)
}
