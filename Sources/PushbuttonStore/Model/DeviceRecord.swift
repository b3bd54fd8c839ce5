import Foundation

/// A registered device as stored: its registration, and whether APNs has declared its token dead.
public struct DeviceRecord: Sendable, Hashable {
    /// The latest registration, as the device (or a backend for it) sent it.
    public var registration: DeviceRegistration
    /// `false` once APNs answered 410 for it (and no newer registration came since).
    public var active: Bool
    /// APNs' timestamp of the token's death, when inactive.
    public var inactiveSince: Date?
    /// When the store last changed the record (a registration, a 410).
    public var updatedAt: Date

    /// A device record with every field given, as the store reads it.
    public init(registration: DeviceRegistration, active: Bool, inactiveSince: Date?, updatedAt: Date) {
        self.registration = registration
        self.active = active
        self.inactiveSince = inactiveSince
        self.updatedAt = updatedAt
    }
}
