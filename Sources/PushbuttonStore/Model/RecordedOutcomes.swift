/// What recording a batch of final outcomes did, all in one transaction.
public struct RecordedOutcomes: Sendable, Hashable {
    /// Per result, in order: whether it was recorded (`false`: its lease had passed to another worker).
    public var recorded: [Bool]
    /// Devices marked inactive by the batch's recorded 410s, per app.
    public var deactivated: [String: Int]
    /// Webhook events queued by the batch (one per recorded rejection or failure, when asked for).
    public var webhookEvents: Int

    /// What a batch did.
    public init(recorded: [Bool], deactivated: [String: Int] = [:], webhookEvents: Int = 0) {
        self.recorded = recorded
        self.deactivated = deactivated
        self.webhookEvents = webhookEvents
    }
}
