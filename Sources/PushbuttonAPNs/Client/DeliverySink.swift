/// Where a ``Delivery`` hands its definite result: the bulk sender's mailbox, or the continuation of a
/// single send. A protocol rather than a closure, so a delivery allocates no closure context.
protocol DeliverySink: AnyObject, Sendable {
    /// `delivery` ended with `result` after `attempts` attempts (retries included); its
    /// ``Delivery/notification`` is the one sent. The delivery is finished: nothing refers to its state any
    /// more, so a sink that starts deliveries itself (a bulk pump) may start it again for its next
    /// notification (`Delivery.start(_:reusing:client:sink:)`) once it no longer needs the notification. A sink that keeps
    /// the notification reads it from the delivery, so one that does not costs no copy of it.
    func finished(_ delivery: Delivery, _ result: APNsResult, attempts: Int)
}
