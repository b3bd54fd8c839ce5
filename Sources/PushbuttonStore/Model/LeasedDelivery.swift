/// A recipient a worker holds: everything needed to send it, and the lease token that proves ownership.
public struct LeasedDelivery: Sendable, Hashable {
    public var id: Int64
    public var notificationID: String
    public var app: String
    public var token: String
    public var apnsID: String
    public var payload: [UInt8]
    public var topic: String
    public var pushType: String
    public var priority: Int?
    public var expiration: Int64?
    public var collapseID: String?
    /// How many times it has been leased, this one included (more than 1 after a lease expired).
    public var leases: Int
    public var leaseToken: String

    public init(
        id: Int64, notificationID: String, app: String, token: String, apnsID: String, payload: [UInt8],
        topic: String, pushType: String, priority: Int?, expiration: Int64?, collapseID: String?, leases: Int,
        leaseToken: String
    ) {
        self.id = id
        self.notificationID = notificationID
        self.app = app
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.topic = topic
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.leases = leases
        self.leaseToken = leaseToken
    }
}
