import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonStore
import PushbuttonSupport

/// Posts the event stream's rows from the store's leases (``EventRelay``), `batch` events per request:
/// `{"events": [{"id", "type", "at", "app", …}, …]}`, signed and retried as every webhook request is. Rows are
/// removed only once the receiver acknowledged their batch; a batch whose process died is posted again by
/// another after its lease runs out (each event keeps its `id`, so the receiver drops the repeat).
struct EventStreamRelay: Sendable {
    /// Events leased at once, at most (posted `batch` a request): a backlog costs a claim per 1,000, not per
    /// request; a claim takes what is there, so an idle stream's events go out at once in a small one.
    static let leaseSize = 1000
    /// Leases posted side by side while there is a backlog.
    static let concurrency = 4

    let relay: EventRelay<StreamEvent>

    init(
        store: any EventStreamStore, webhook: WebhookNotifier, stream: EventStreamConfiguration,
        threads: HandlerThreads,
        now: @escaping @Sendable () -> Date, clock: AnyDurationClock = .continuous, lease: TimeInterval = 60
    ) {
        let url = stream.url ?? webhook.configuration.url
        relay = EventRelay(
            name: "the event stream", store: store,
            claim: { limit, duration, at throws(StoreError) in
                try store.leaseStreamEvents(limit: limit, duration: duration, now: at)
            },
            posts: { events in
                stride(from: 0, to: events.count, by: stream.batch).map { start in
                    let batch = events[start..<min(start + stream.batch, events.count)]
                    let body: JSONValue = .object(["events": .array(batch.map(Self.json))])
                    let (first, last) = (batch[batch.startIndex].rowID, batch[batch.endIndex - 1].rowID)
                    return .init(
                        ids: batch.map(\.rowID),
                        request: webhook.request(url: url, body: body, key: "events:\(first)-\(last)"))
                }
            }, webhook: webhook, threads: threads, now: now, batchSize: Self.leaseSize,
            concurrency: Self.concurrency, lease: lease, clock: clock)
    }

    /// Relays until cancelled.
    func run() async { await relay.run() }

    /// One event as the stream posts it: its fields with `id`, `type`, `at` (epoch milliseconds) and `app`.
    static func json(_ event: StreamEvent) -> JSONValue {
        var object = event.fields
        object["id"] = .string(event.id)
        object["type"] = .string(event.kind.rawValue)
        object["at"] = Rendering.milliseconds(event.at)
        object["app"] = .string(event.app)
        return .object(object)
    }
}
