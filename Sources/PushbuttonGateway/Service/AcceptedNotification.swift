import Pushbutton
import PushbuttonStore

/// What the intake answers for a notification or campaign it queued (or had queued before under the same
/// `Idempotency-Key`): the stored record, the payload's warnings, and whether this was a replay.
struct AcceptedNotification: Sendable {
    var record: NotificationRecord
    var warnings: [Diagnostic]
    var replayed: Bool
}
