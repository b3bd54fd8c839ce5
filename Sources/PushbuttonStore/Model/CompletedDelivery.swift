/// A leased recipient's final outcome, as a worker records it.
public struct CompletedDelivery: Sendable, Hashable {
    /// The recipient as the worker leased it (its lease token says whether the lease is still the worker's).
    public var delivery: LeasedDelivery
    /// What APNs answered, or why the worker gave up.
    public var outcome: DeliveryOutcome
    /// APNs attempts made under this lease.
    public var attempts: Int

    /// The outcome of `delivery` after `attempts` APNs attempts under its lease.
    public init(_ delivery: LeasedDelivery, outcome: DeliveryOutcome, attempts: Int) {
        self.delivery = delivery
        self.outcome = outcome
        self.attempts = attempts
    }
}
