import Foundation

/// One recipient as read back over the API.
public struct DeliveryRecord: Sendable, Hashable {
    public var id: Int64
    public var token: String
    public var apnsID: String
    public var state: DeliveryState
    public var status: Int?
    public var reason: String?
    /// APNs attempts (of the final lease) and the number of leases.
    public var attempts: Int
    public var leases: Int
    public var finishedAt: Date?
    public var unregisteredAt: Date?

    public init(
        id: Int64, token: String, apnsID: String, state: DeliveryState, status: Int?, reason: String?, attempts: Int,
        leases: Int, finishedAt: Date?, unregisteredAt: Date?
    ) {
        self.id = id
        self.token = token
        self.apnsID = apnsID
        self.state = state
        self.status = status
        self.reason = reason
        self.attempts = attempts
        self.leases = leases
        self.finishedAt = finishedAt
        self.unregisteredAt = unregisteredAt
    }
}
