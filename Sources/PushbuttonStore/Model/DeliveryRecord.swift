import Foundation

/// One recipient as read back over the API.
public struct DeliveryRecord: Sendable, Hashable {
    /// The recipient's row id, unique within the store.
    public var id: Int64
    /// The device token, lowercase hex.
    public var token: String
    /// The `apns-id` fixed at intake, the same on every attempt (APNs echoes it back).
    public var apnsID: String
    /// Where the recipient is: queued, leased or an outcome.
    public var state: DeliveryState
    /// APNs' HTTP status: 200 when delivered, the refusal's (400, 410, …) when rejected; `nil` while not sent or
    /// when retries ran out.
    public var status: Int?
    /// APNs' `reason` of a refusal (`BadDeviceToken`, `Unregistered`, …), or the last cause when retries ran out.
    public var reason: String?
    /// APNs attempts (of the final lease) and the number of leases.
    public var attempts: Int
    /// How many times a worker leased it: more than one after a worker died or its lease ran out.
    public var leases: Int
    /// When its outcome was recorded; `nil` until it has one.
    public var finishedAt: Date?
    /// For a 410, APNs' `timestamp`: since when the token is dead.
    public var unregisteredAt: Date?

    /// A recipient with every field given, as the store reads it.
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
