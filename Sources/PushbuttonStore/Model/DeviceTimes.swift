/// What a device registered about its local time: its IANA time zone and its own quiet hours (minutes after
/// local midnight), as ``GatewayStore/deviceTimes(app:tokens:)`` reads them for a campaign's page.
public struct DeviceTimes: Sendable, Hashable {
    /// The IANA time zone, when registered.
    public var timeZone: String?
    /// The device's quiet hours' start and end, when it registered its own.
    public var quietStart: Int?
    /// See ``quietStart``.
    public var quietEnd: Int?

    /// Times as given.
    public init(timeZone: String? = nil, quietStart: Int? = nil, quietEnd: Int? = nil) {
        self.timeZone = timeZone
        self.quietStart = quietStart
        self.quietEnd = quietEnd
    }
}
