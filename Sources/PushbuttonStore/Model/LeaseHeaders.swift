/// What the leased rows of one notification under one lease share (``LeasedDelivery``): immutable, so the
/// rows hold one reference to it instead of a copy of each string.
final class LeaseHeaders: Sendable {
    struct Fields: Sendable, Hashable {
        var notificationID: String
        var app: String
        var topic: String
        var pushType: String
        var priority: Int?
        var expiration: Int64?
        var collapseID: String?
        var leaseToken: String
    }

    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    convenience init(
        notificationID: String, app: String, topic: String, pushType: String, priority: Int?, expiration: Int64?,
        collapseID: String?, leaseToken: String
    ) {
        self.init(
            Fields(
                notificationID: notificationID, app: app, topic: topic, pushType: pushType, priority: priority,
                expiration: expiration, collapseID: collapseID, leaseToken: leaseToken))
    }

    /// A copy with one change (a row's setter: the other rows keep this one).
    func with(_ change: (inout Fields) -> Void) -> LeaseHeaders {
        var fields = self.fields
        change(&fields)
        return LeaseHeaders(fields)
    }
}
