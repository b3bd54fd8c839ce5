/// Where a ``Delivery`` hands its definite result: the bulk sender's mailbox, or the continuation of a
/// single send. A protocol rather than a closure, so a delivery allocates no closure context.
protocol DeliverySink: AnyObject, Sendable {
    func finished(_ notification: APNsNotification, _ result: APNsResult)
}
