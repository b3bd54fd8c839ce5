/// What the intake's group commit answers for one single notification: created or replayed, whether its
/// recipients were leased at intake and handed to a worker (then no one else need be woken), and its record as
/// committed when it was built from the values written (``NotificationRecord/init(committed:ids:skipped:leased:)``).
struct IntakeAnswer {
    var result: EnqueueResult
    var handedOff = false
    var record: NotificationRecord?
}
