import Foundation
import PushbuttonStore
import PushbuttonSupport

/// Moves the webhook events the store queued with their outcomes into this process's webhook outbox, which
/// signs, posts and retries them. An event is removed from the store only after the outbox has it; a crash
/// in between hands it on again when its claim expires (the receiver deduplicates by the event's `id`).
struct WebhookRelay: Sendable {
    let store: any GatewayStore
    let webhook: WebhookNotifier
    let threads: HandlerThreads
    let now: @Sendable () -> Date
    /// What the polls and the failure backoff sleep on (a `ManualClock` in tests).
    var clock: AnyDurationClock = .continuous
    var batchSize = 200
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
                    FileHandle.standardError.write(Data("pushbutton serve: webhook events: \(error)\n".utf8))
                }
                try? await clock.sleep(for: min(pollInterval * failures, .seconds(5)))
            }
        }
    }

    /// Hands one batch on; returns how many events it moved.
    func relayBatch() async throws(StoreError) -> Int {
        let (store, limit, claim, at) = (self.store, batchSize, self.claim, now())
        let events = try await threads.perform { () throws(StoreError) in
            try store.claimWebhookEvents(limit: limit, duration: claim, now: at)
        }
        guard !events.isEmpty else { return 0 }
        var handed: [Int64] = []
        for event in events where await webhook.post(event) { handed.append(event.id) }
        let finished = handed
        try await threads.perform { () throws(StoreError) in try store.finishWebhookEvents(finished) }
        return handed.count
    }
}
