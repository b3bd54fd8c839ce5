import Foundation
import PushbuttonStore
import PushbuttonSupport

/// Posts the webhook events the store queued with their outcomes, one request each, from the store's leases
/// (``EventRelay``): an event is removed only once the receiver acknowledged it.
struct WebhookRelay: Sendable {
    let relay: EventRelay<WebhookEvent>

    init(
        store: any GatewayStore, webhook: WebhookNotifier, threads: HandlerThreads, now: @escaping @Sendable () -> Date,
        clock: AnyDurationClock = .continuous, lease: TimeInterval = 60
    ) {
        relay = EventRelay(
            name: "webhook events", store: store,
            claim: { limit, duration, at throws(StoreError) in
                try store.leaseWebhookEvents(limit: limit, duration: duration, now: at)
            },
            posts: { events in events.map { .init(ids: [$0.id], request: webhook.request($0)) } }, webhook: webhook,
            threads: threads, now: now, lease: lease, clock: clock)
    }

    /// Relays until cancelled.
    func run() async { await relay.run() }
}
