import Foundation

/// A registered device as stored: its registration, and whether APNs has declared its token dead.
public struct DeviceRecord: Sendable, Hashable {
    public var registration: DeviceRegistration
    /// `false` once APNs answered 410 for it (and no newer registration came since).
    public var active: Bool
    /// APNs' timestamp of the token's death, when inactive.
    public var inactiveSince: Date?
    public var updatedAt: Date

    public init(registration: DeviceRegistration, active: Bool, inactiveSince: Date?, updatedAt: Date) {
        self.registration = registration
        self.active = active
        self.inactiveSince = inactiveSince
        self.updatedAt = updatedAt
    }
}
