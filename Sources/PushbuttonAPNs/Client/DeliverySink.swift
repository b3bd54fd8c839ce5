/// Where a ``Delivery`` hands its definite result: the bulk sender's mailbox, or the continuation of a
/// single send. A protocol rather than a closure, so a delivery allocates no closure context.
protocol DeliverySink: AnyObject, Sendable {
    /// `attempts`: how many attempts the result took, retries included.
    func finished(_ notification: APNsNotification, _ result: APNsResult, attempts: Int)
}
