/// A notification or campaign read back: what was accepted, its counts by state, and a page of recipients.
public struct NotificationRecord: Sendable, Hashable {
    /// The notification or campaign as accepted.
    public var spec: NotificationSpec
    /// `open`, or `cancelled` for a cancelled campaign.
    public var state: String
    /// How many recipients are in each state; states with none are absent.
    public var counts: [DeliveryState: Int]
    /// The page of recipients asked for, in id order.
    public var deliveries: [DeliveryRecord]
    /// What of it waits, when read with its schedule (``GatewayStore/schedule(of:now:)``).
    public var schedule: ScheduleCounts?
    /// The skipped recipients by why (`frequency_cap`, `device_inactive`), those with none left out.
    public var skippedReasons: [String: Int] = [:]

    /// A record read back; ``schedule`` is filled in only when asked for.
    public init(spec: NotificationSpec, state: String, counts: [DeliveryState: Int], deliveries: [DeliveryRecord]) {
        self.spec = spec
        self.state = state
        self.counts = counts
        self.deliveries = deliveries
    }

    /// The skipped reason of a recipient whose device was registered inactive when it was accepted.
    public static let deviceInactiveReason = "device_inactive"

    /// Recipients in all states.
    public var total: Int { counts.values.reduce(0, +) }
}
