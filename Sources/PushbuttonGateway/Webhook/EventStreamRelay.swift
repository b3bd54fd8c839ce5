import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonStore
import PushbuttonSupport

/// Moves the event stream's rows from the store into the webhook outbox, a batch per request:
/// `{"events": [{"id", "type", "at", "app", …}, …]}`, signed and retried as every webhook request is. Rows are
/// removed from the store only once the outbox has their batch; a crash in between posts them again after
/// their claim expires (each event keeps its `id`, so the receiver drops the repeat).
struct EventStreamRelay: Sendable {
    let store: any EventStreamStore
    let webhook: WebhookNotifier
    let stream: EventStreamConfiguration
    let threads: HandlerThreads
    let now: @Sendable () -> Date
    /// What the polls and the failure backoff sleep on (a `ManualClock` in tests).
    var clock: AnyDurationClock = .continuous
    var claim: TimeInterval = 60
    var pollInterval: Duration = .milliseconds(200)

    /// Relays until cancelled.
    func run() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                if try await relayBatch() == 0 { try? await clock.sleep(for: pollInterval) }
                failures = 0
            } catch {
                failures += 1
                if failures == 1 {
                    FileHandle.standardError.write(Data("pushbutton serve: the event stream: \(error)\n".utf8))
                }
                try? await clock.sleep(for: min(pollInterval * failures, .seconds(5)))
            }
        }
    }

    /// Hands one batch on; returns how many events it moved.
    func relayBatch() async throws(StoreError) -> Int {
        let (store, limit, claim, at) = (self.store, stream.batch, self.claim, now())
        let events = try await threads.perform { () throws(StoreError) in
            try store.claimStreamEvents(limit: limit, duration: claim, now: at)
        }
        guard let first = events.first, let last = events.last else { return 0 }
        let request = BackendRequest(
            url: stream.url ?? webhook.configuration.url, method: "POST",
            body: .object(["events": .array(events.map(Self.json))]),
            idempotencyKey: "events:\(first.rowID)-\(last.rowID)", notificationIdentifier: "",
            actionIdentifier: "events")
        guard await webhook.enqueue(request) else { return 0 }
        let finished = events.map(\.rowID)
        try await threads.perform { () throws(StoreError) in try store.finishStreamEvents(finished) }
        return events.count
    }

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
