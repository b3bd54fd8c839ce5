/// A leased recipient's final outcome, as a worker records it.
public struct CompletedDelivery: Sendable, Hashable {
    public var delivery: LeasedDelivery
    public var outcome: DeliveryOutcome
    /// APNs attempts made under this lease.
    public var attempts: Int

    public init(_ delivery: LeasedDelivery, outcome: DeliveryOutcome, attempts: Int) {
        self.delivery = delivery
        self.outcome = outcome
        self.attempts = attempts
    }
}
