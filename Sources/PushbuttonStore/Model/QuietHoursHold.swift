/// A notification's recipients held by quiet hours (issue 35): its app's window (minutes after each device's
/// local midnight; a device's own registered window overrides it) and the app's default time zone for devices
/// without one. The gateway applies it at intake; the store applies it again when a lease takes a recipient,
/// so one queued outside the window but sent later (a throttled campaign, a backlog, an APNs outage) is held
/// to the window's end rather than sent inside it.
public struct QuietHoursHold: Sendable, Hashable {
    /// The window's start, minutes after local midnight.
    public var start: Int
    /// The window's end (exclusive), minutes after local midnight; before ``start`` when it wraps midnight.
    public var end: Int
    /// The IANA zone of devices that registered none (the app's `default_time_zone`); `nil`: UTC.
    public var defaultTimeZone: String?

    /// A hold by the window `start`–`end`, devices without a zone in `defaultTimeZone`.
    public init(start: Int, end: Int, defaultTimeZone: String? = nil) {
        self.start = start
        self.end = end
        self.defaultTimeZone = defaultTimeZone
    }
}
