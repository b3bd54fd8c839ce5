/// The store's two queues of events a relay posts to the webhook.
public enum EventQueue: String, Sendable, Hashable {
    /// `device.unregistered` and `notification.failed` events, one request each (`webhook_events`).
    case webhook
    /// The event stream's rows, posted in batches (`stream_events`).
    case stream

    /// The table and its key column.
    var table: (name: String, key: String) {
        switch self {
        case .webhook: ("webhook_events", "delivery_id")
        case .stream: ("stream_events", "id")
        }
    }
}
