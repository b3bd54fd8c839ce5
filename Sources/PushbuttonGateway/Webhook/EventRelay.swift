import Foundation
import PushbuttonOutbox
import PushbuttonStore
import PushbuttonSupport

/// The loop both webhook relays share: lease a batch of events in the store, post them (renewing the lease
/// while the posts take), remove each once its request was acknowledged, and give the others back with a
/// backoff. The events never leave the store before they are acknowledged, so on PostgreSQL whichever process
/// is alive posts them: a dead holder's lease runs out and another process leases them again (the receiver
/// drops a repeat by its `Idempotency-Key`, the event id).
struct EventRelay<Event: Sendable>: Sendable {
    /// One request carrying some of a lease's events: a webhook event alone, or a stream batch.
    struct Post: Sendable {
        var ids: [Int64]
        var request: OutgoingRequest
    }

    let name: String
    let store: any EventLeaseStore
    let claim: @Sendable (_ limit: Int, _ duration: TimeInterval, _ now: Date) throws(StoreError) -> LeasedEvents<Event>
    let posts: @Sendable ([Event]) -> [Post]
    let webhook: WebhookNotifier
    let threads: HandlerThreads
    let now: @Sendable () -> Date
    var batchSize = 200
    /// Leases posted side by side at most while there is a backlog (1: one at a time, as the webhook's are).
    var concurrency = 1
    /// How long a lease lasts unrenewed: a dead process's events wait this long before another posts them.
    var lease: TimeInterval = 60
    /// What the polls and the store-failure backoff sleep on (a `ManualClock` in tests).
    var clock: AnyDurationClock = .continuous
    /// What the lease renewal waits on: the real clock (a test's manual clock would count it as an idle wait).
    var renewalClock: AnyDurationClock = .continuous
    var pollInterval: Duration = .milliseconds(200)

    /// What one pass did: events acknowledged, and why a post failed (nil: none did).
    struct Pass {
        var posted = 0
        var failure: String?
    }

    /// Relays until cancelled; a failure is reported once per run of failures. While claims come back full (a
    /// backlog), the next lease is claimed at once and up to ``concurrency`` leases are posted side by side;
    /// once caught up (or while posts fail) it is one lease at a time again, polling when there is none.
    func run() async {
        await withTaskGroup(of: Pass.self) { group in
            var (failing, running) = (false, 0)
            // Reports a pass's failure once per run of failures; true when the pass failed.
            func settle(_ pass: Pass) -> Bool {
                if let failure = pass.failure, !failing {
                    FileHandle.standardError.write(Data("pushbutton serve: \(name): \(failure)\n".utf8))
                }
                failing = pass.failure != nil
                return failing
            }
            while !Task.isCancelled {
                var (claimed, storeFailed) = (0, false)
                do {
                    let leased = try await claimBatch()
                    claimed = leased.events.count
                    if claimed > 0 {
                        group.addTask { await post(leased) }
                        running += 1
                    } else if running == 0 {
                        _ = settle(Pass())
                    }
                } catch {
                    storeFailed = settle(Pass(failure: "\(error)"))
                }
                let backlog = claimed == batchSize && !failing
                if backlog && running < concurrency { continue }
                if running > 0, let pass = await group.next() {
                    running -= 1
                    if !settle(pass) && !storeFailed && (backlog || pass.posted > 0) { continue }
                }
                if claimed == 0 || failing { try? await clock.sleep(for: pollInterval) }
            }
            // Cancelled: each running lease gives back what it did not post.
            while let pass = await group.next() { _ = settle(pass) }
        }
    }

    /// Leases up to ``batchSize`` events.
    private func claimBatch() async throws(StoreError) -> LeasedEvents<Event> {
        let (claim, limit, duration, at) = (self.claim, batchSize, lease, now())
        return try await threads.perform { () throws(StoreError) in try claim(limit, duration, at) }
    }

    /// Posts a lease's events, renewing the lease while the posts take; a store failure ends the pass with it.
    private func post(_ leased: LeasedEvents<Event>) async -> Pass {
        let renewal = renew(leased.lease)
        defer { renewal.cancel() }
        var pass = Pass()
        do { try await post(leased, into: &pass) } catch { pass.failure = "\(error)" }
        return pass
    }

    private func post(_ leased: LeasedEvents<Event>, into pass: inout Pass) async throws(StoreError) {
        var waiting = posts(leased.events)[...]
        while let post = waiting.first, !Task.isCancelled {
            waiting = waiting.dropFirst()
            switch await WebhookAnswer.of(post.request, sender: webhook.sender) {
            case .acknowledged:
                try await finish(post.ids, leased.lease)
                pass.posted += post.ids.count
            case .refused(let reason):
                try await finish(post.ids, leased.lease)
                report("dropped \(post.request.headers["Idempotency-Key"] ?? "") for good: \(reason)")
            case .retry(let reason):
                // The receiver is failing: this post waits out its backoff and the rest of the lease with it.
                let failures = (post.ids.compactMap { leased.failures[$0] }.max() ?? 0) + 1
                let at = now().addingTimeInterval(WebhookNotifier.backoff(afterFailure: failures).seconds)
                try await giveBack(post.ids, leased.lease, at: at, failed: true)
                try await giveBack(waiting.flatMap(\.ids), leased.lease, at: at, failed: false)
                waiting = []
                pass.failure = reason
            }
        }
        // Cancelled (the gateway stops): what was not posted is claimable again at once.
        try await giveBack(waiting.flatMap(\.ids), leased.lease, at: now(), failed: false)
    }

    private func finish(_ ids: [Int64], _ lease: EventLease) async throws(StoreError) {
        let store = self.store
        _ = try await threads.perform { () throws(StoreError) in try store.finishEvents(ids, lease: lease) }
    }

    private func giveBack(_ ids: [Int64], _ lease: EventLease, at: Date, failed: Bool) async throws(StoreError) {
        guard !ids.isEmpty else { return }
        let store = self.store
        let dropped = try await threads.perform { () throws(StoreError) in
            try store.retryEvents(
                ids, lease: lease, at: at, failed: failed, maximumAttempts: WebhookNotifier.maximumAttempts)
        }
        if !dropped.isEmpty {
            report("gave up on \(dropped.count) event(s) after \(WebhookNotifier.maximumAttempts) failed posts")
        }
    }

    /// Renews `lease` every third of its length until cancelled, so a slow receiver does not lose it.
    private func renew(_ lease: EventLease) -> Task<Void, Never> {
        let (store, threads, now, clock, length) = (self.store, self.threads, self.now, renewalClock, self.lease)
        return Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: .seconds(length / 3)) } catch { return }
                let until = now().addingTimeInterval(length)
                _ = try? await threads.perform { () throws(StoreError) in
                    try store.renewEventLease(lease, until: until)
                }
            }
        }
    }

    private func report(_ message: String) {
        FileHandle.standardError.write(Data("pushbutton serve: \(name): \(message)\n".utf8))
    }
}
