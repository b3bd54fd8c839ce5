import Foundation

/// When a notification's or campaign's recipients go out (issue 35): how many of those still queued wait
/// for their time, and when a throttled campaign should finish. Read with ``GatewayStore/schedule(of:now:)``.
public struct ScheduleCounts: Sendable, Hashable {
    /// Queued recipients whose send time (`send_at`, a device's local time) is still ahead.
    public var scheduled: Int
    /// Queued recipients held until their quiet hours end.
    public var held: Int
    /// Queued recipients waiting for their campaign's rate (`throttle_per_minute`).
    public var throttled: Int
    /// The notification's `send_at`, when it has one.
    public var sendAt: Date?
    /// The campaign's rate, when it has one.
    public var throttlePerMinute: Int?
    /// When a throttled campaign's queued recipients will all have been sent at its rate.
    public var expectedFinish: Date?

    /// Counts as given.
    public init(
        scheduled: Int = 0, held: Int = 0, throttled: Int = 0, sendAt: Date? = nil, throttlePerMinute: Int? = nil,
        expectedFinish: Date? = nil
    ) {
        self.scheduled = scheduled
        self.held = held
        self.throttled = throttled
        self.sendAt = sendAt
        self.throttlePerMinute = throttlePerMinute
        self.expectedFinish = expectedFinish
    }

    /// Those still queued that wait (scheduled, held or throttled): not due yet.
    public var waiting: Int { scheduled + held + throttled }
}
