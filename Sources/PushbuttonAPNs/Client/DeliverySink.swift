/// Where a ``Delivery`` hands its definite result: the bulk sender's mailbox, or the continuation of a
/// single send. A protocol rather than a closure, so a delivery allocates no closure context.
protocol DeliverySink: AnyObject, Sendable {
    /// `attempts`: how many attempts the result took, retries included.
    func finished(_ notification: APNsNotification, _ result: APNsResult, attempts: Int)
    /// The same, with the finished delivery, which a sink that starts deliveries itself (a bulk pump) may
    /// start again for its next notification (``Delivery/restart(with:)``) instead of allocating another.
    /// Nothing refers to a finished delivery's state any more: its last attempt's answer has been handled.
    func finished(_ delivery: Delivery, _ notification: APNsNotification, _ result: APNsResult, attempts: Int)
}

extension DeliverySink {
    func finished(_ delivery: Delivery, _ notification: APNsNotification, _ result: APNsResult, attempts: Int) {
        finished(notification, result, attempts: attempts)
    }
}
