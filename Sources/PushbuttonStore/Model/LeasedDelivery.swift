/// A recipient a worker holds: everything needed to send it, and the lease token that proves ownership.
///
/// The fields every recipient of one notification under one lease shares (its id, app, headers and the
/// lease token) are kept once, in a reference the rows share: a copy of a row (into its outcome, into a
/// group of outcomes) retains four references instead of nine, and a lease allocates the shared strings once.
public struct LeasedDelivery: Sendable, Hashable {
    /// The recipient's row id.
    public var id: Int64
    /// The device token, as stored (hex).
    public var token: String
    /// The `apns-id` it is sent with (the same on every lease).
    public var apnsID: String
    /// The payload sent: the recipient's own, or the one its notification's recipients share.
    public var payload: [UInt8]
    /// How many times it has been leased, this one included (more than 1 after a lease expired).
    public var leases: Int
    /// The shared fields; replaced (never changed in place) when one of them is set.
    var shared: LeaseHeaders

    /// A row with shared fields of its own (tests; the store shares them between a notification's rows).
    public init(
        id: Int64, notificationID: String, app: String, token: String, apnsID: String, payload: [UInt8],
        topic: String, pushType: String, priority: Int?, expiration: Int64?, collapseID: String?, leases: Int,
        leaseToken: String
    ) {
        self.init(
            id: id, token: token, apnsID: apnsID, payload: payload, leases: leases,
            shared: LeaseHeaders(
                notificationID: notificationID, app: app, topic: topic, pushType: pushType, priority: priority,
                expiration: expiration, collapseID: collapseID, leaseToken: leaseToken))
    }

    /// A row sharing `shared` with the other rows of its notification in one lease.
    init(id: Int64, token: String, apnsID: String, payload: [UInt8], leases: Int, shared: LeaseHeaders) {
        self.id = id
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.leases = leases
        self.shared = shared
    }

    /// The notification (or campaign) it belongs to.
    public var notificationID: String {
        get { shared.fields.notificationID }
        set { shared = shared.with { $0.notificationID = newValue } }
    }
    /// The app it is sent for.
    public var app: String {
        get { shared.fields.app }
        set { shared = shared.with { $0.app = newValue } }
    }
    /// The `apns-topic`.
    public var topic: String {
        get { shared.fields.topic }
        set { shared = shared.with { $0.topic = newValue } }
    }
    /// The `apns-push-type`.
    public var pushType: String {
        get { shared.fields.pushType }
        set { shared = shared.with { $0.pushType = newValue } }
    }
    /// The `apns-priority`, when set.
    public var priority: Int? {
        get { shared.fields.priority }
        set { shared = shared.with { $0.priority = newValue } }
    }
    /// The `apns-expiration` (seconds since 1970), when set.
    public var expiration: Int64? {
        get { shared.fields.expiration }
        set { shared = shared.with { $0.expiration = newValue } }
    }
    /// The `apns-collapse-id`, when set.
    public var collapseID: String? {
        get { shared.fields.collapseID }
        set { shared = shared.with { $0.collapseID = newValue } }
    }
    /// The lease that holds it: its outcome counts only while that lease does.
    public var leaseToken: String {
        get { shared.fields.leaseToken }
        set { shared = shared.with { $0.leaseToken = newValue } }
    }

    /// Equal when every field is, shared or not.
    public static func == (lhs: LeasedDelivery, rhs: LeasedDelivery) -> Bool {
        lhs.id == rhs.id && lhs.token == rhs.token && lhs.apnsID == rhs.apnsID && lhs.payload == rhs.payload
            && lhs.leases == rhs.leases && (lhs.shared === rhs.shared || lhs.shared.fields == rhs.shared.fields)
    }

    /// Hashes every field, shared or not.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(token)
        hasher.combine(apnsID)
        hasher.combine(payload)
        hasher.combine(leases)
        hasher.combine(shared.fields)
    }
}
