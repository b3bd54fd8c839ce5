import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

/// The in-process workers: each leases a batch of due recipients, sends them with its app's `APNsClient`
/// (which retries per the `RetryPolicy`, with the same `apns-id`), and records the outcomes in one
/// transaction. A worker killed mid-send leaves its lease to expire; the recipients are then due again, for
/// any process, with the same `apns-id`. A 410 marks the device inactive with APNs' timestamp and, like
/// every final failure, queues a webhook event — both in the outcome's own transaction.
///
/// A worker leases and sends its next batch while its last one's outcomes are recorded (at most one batch
/// waits per worker), and the ``OutcomeRecorder`` records the batches of several workers in one transaction.
///
/// An idle worker does not sleep out a poll interval: it waits on the ``WorkSignal`` that a committed intake
/// raises (in this process, or in another through the store's `LISTEN`), with the poll interval only as the
/// fallback for a signal that was lost. So a lone notification is leased and sent, alone, as soon as it is
/// committed, while under a campaign every lease still takes a full batch.
///
/// The store's calls block (SQLite's fsync, PostgreSQL's round trips): they run on threads of their own
/// (``threads``), never on Swift's cooperative pool, whose few threads the APNs client's work needs.
final class DeliveryWorkers: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let options: WorkerOptions
    let metrics: GatewayMetrics
    let webhook: WebhookNotifier?
    let now: @Sendable () -> Date
    /// What the polls and the store-failure backoff sleep on (a `ManualClock` in tests).
    let clock: AnyDurationClock
    /// One thread per worker, plus one for the ``OutcomeRecorder`` (a worker may lease while its last batch
    /// records) and one for the webhook relay.
    let threads: HandlerThreads
    let recorder: OutcomeRecorder
    let drain: DrainState
    /// Raised when work is committed; idle workers wait on it.
    let signal: WorkSignal
    /// A single notification leased in its intake's transaction, handed to an idle worker here in memory.
    let handOff: LeaseHandOff
    /// Each app's circuit breaker: while its APNs cannot be reached, its recipients are held, not failed.
    let circuits: [String: APNsCircuit]
    /// Decides experiments' test phases when due (issue 36); nil: this process decides none.
    let experiments: ExperimentService?
    /// When this process last looked for due decisions (by `now`): at most once a second under load.
    let experimentsChecked = Locked<Date?>(nil)

    init(
        store: any GatewayStore, apps: [String: AppRuntime], options: WorkerOptions, metrics: GatewayMetrics,
        webhook: WebhookNotifier?, drain: DrainState = DrainState(), now: @escaping @Sendable () -> Date,
        clock: AnyDurationClock = .continuous, signal: WorkSignal = WorkSignal(), waiters: OutcomeWaiters? = nil,
        experiments: ExperimentService? = nil
    ) {
        self.experiments = experiments
        self.drain = drain
        self.clock = clock
        self.signal = signal
        handOff = LeaseHandOff(
            leaseSeconds: options.lease.seconds, busyBacklog: options.count * Self.busyBacklogPerWorker
        ) { signal.handedOver() }
        self.store = store
        self.apps = apps
        self.options = options
        self.metrics = metrics
        self.webhook = webhook
        self.now = now
        threads = HandlerThreads(count: options.count + 2, name: "pb-store")
        recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: metrics, webhookEvents: webhook != nil, waiters: waiters,
            retryLimit: options.lease, drain: drain, now: now)
        circuits = Self.circuits(apps: apps.keys, clock: clock, metrics: metrics)
    }

    /// Runs `options.count` workers (and the webhook relay) until the task is cancelled or the drain begins;
    /// each finishes sending the batch it has and records its outcomes first (the send is not cancelled), and
    /// a batch leased but not started is released to the queue at once. Then the store threads end.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<options.count { group.addTask { await self.work() } }
            if let webhook {
                let relay = WebhookRelay(
                    store: store, webhook: webhook, threads: threads, now: now, clock: clock,
                    lease: options.lease.seconds)
                group.addTask { await relay.run() }
            }
            if let webhook, let stream = webhook.configuration.events, let events = store as? any EventStreamStore {
                let relay = EventStreamRelay(
                    store: events, webhook: webhook, stream: stream, threads: threads, now: now, clock: clock,
                    lease: options.lease.seconds)
                group.addTask { await relay.run() }
            }
        }
        await threads.stop()
    }

    private func work() async {
        var storeFailures = 0
        let store = self.store
        // The last batch's outcomes on their way into the store; awaited before the next batch's are handed
        // in, and before the worker ends.
        var recording: Task<Void, Never>?
        // The generation read before this worker's last lease that found nothing, and when its idle wait was
        // to end: while no raise came since, a lease would find nothing again (only a hand-off, or the due time
        // or poll the wait ends at, brings work), so after a handed-over notification it waits again at once.
        var quiet: (since: UInt64, until: Date)?
        // Counted among the hand-off's workers on small batches from the start of a small batch until it takes a
        // large one, is held up by an unreachable APNs, or stops: between batches too (its next lease, its idle
        // wait), so single notifications committed meanwhile wait for it rather than go through the queue.
        var onSmallBatch = false
        func countOnSmallBatch(_ small: Bool) {
            guard small != onSmallBatch else { return }
            handOff.setWaitedFor(small)
            onSmallBatch = small
        }
        while !Task.isCancelled && !drain.isDraining {
            let leased: [LeasedDelivery]
            // Read before the lease: a commit the lease missed has raised the signal since, and ends the wait.
            let seen = signal.generation
            let handOffs = signal.handOffs
            let unreachable = unreachableApps()
            if let handed = handOff.take(now: now(), limit: options.batchSize), !handed.isEmpty {
                leased = handed
            } else if let idle = quiet, idle.since == seen, unreachable.isEmpty,
                idle.until.timeIntervalSince(now()) > Self.quietMargin
            {
                let wake = await waitIdle(after: seen, handOffs: handOffs, timeout: idle.until.timeIntervalSince(now()))
                if wake != .handedOver { quiet = nil }
                continue
            } else {
                quiet = nil
                do {
                    let (limit, duration, at) = (options.batchSize, options.lease.seconds, now())
                    leased = try await threads.perform { () throws(StoreError) in
                        try store.lease(limit: limit, duration: duration, now: at, excludingApps: unreachable)
                    }
                    storeFailures = 0
                } catch {
                    // Not waited for while it backs off: an idle worker, or the queue, takes what comes meanwhile.
                    countOnSmallBatch(false)
                    storeFailures += 1
                    if storeFailures == 1 {
                        FileHandle.standardError.write(Data("pushbutton serve: leasing failed: \(error)\n".utf8))
                    }
                    try? await clock.sleep(for: min(options.pollInterval * storeFailures, .seconds(5)))
                    continue
                }
            }
            if Task.isCancelled || drain.isDraining {
                await release(leased)
                break
            }
            if experimentsDue() {
                await decideExperiments()
            }
            if leased.isEmpty {
                // The last batch's outcomes go on recording meanwhile: a notification handed over now is sent
                // without waiting for their commit.
                let timeout = idleTimeout(await idleTimeout(), passedOver: !unreachable.isEmpty)
                quiet = (seen, now() + timeout.seconds)
                // Only a hand-off keeps the queue known empty: after a raise, the poll or a due time, lease again.
                if await waitIdle(after: seen, handOffs: handOffs, timeout: timeout.seconds) != .handedOver {
                    quiet = nil
                }
                continue
            }
            // A full batch: more may be due; the next idle worker leases it meanwhile (one is woken per raise).
            if leased.count >= options.batchSize { signal.raise() }
            // A worker with a small batch is waited for: single notifications handed over meanwhile are its next
            // batch. One with a campaign's large batch is not (an idle one, or another process, takes them).
            countOnSmallBatch(LeaseHandOff.waitsFor(batchOf: leased.count))
            // The lease is renewed while the batch is sent and its outcomes recorded: a batch slower than the lease
            // (APNs throttling, a slow machine) is not leased again and sent twice meanwhile.
            let renewal = Task { await self.keepLeased(Set(leased.map(\.leaseToken))) }
            // In a task of its own: a stop that cancels the workers lets the batch under way finish.
            let (completed, held) = await Task { await self.send(leased) }.value
            await recording?.value
            let recorder = self.recorder
            // Held ones are given back once the rest of their batch is recorded (a batch comes free whole).
            recording = Task { [self] in
                await recorder.record(completed)
                renewal.cancel()
                await giveBack(held)
            }
            // All held (an app's APNs unreachable): not leased again at once, nor waited for meanwhile.
            if completed.isEmpty {
                countOnSmallBatch(false)
                try? await clock.sleep(for: options.pollInterval)
            }
        }
        countOnSmallBatch(false)
        // Stopping: a recording that fails now is given up, not retried (its leases run out, as after a crash).
        recorder.stopRetrying()
        await recording?.value
        // No more hand-offs; those not taken are given back to the queue.
        await release(handOff.close())
    }

    /// Waits, counted idle (so an intake may hand this worker a notification), until a raise after `seen`, a
    /// hand-off after `handOffs`, or `timeout` seconds.
    private func waitIdle(after seen: UInt64, handOffs: UInt64, timeout: TimeInterval) async -> WorkSignal.Wake {
        handOff.setIdle(true)
        defer { handOff.setIdle(false) }
        return await signal.wait(after: seen, handOffs: handOffs, timeout: .seconds(max(0, timeout)))
    }

    /// Single notifications that may wait, leased at intake, for each worker busy with a small batch
    /// (``LeaseHandOff/busyBacklog``): it takes them together at its next turn, in milliseconds under load.
    /// Bounded so a process whose workers are held up (a slow APNs) does not keep many from other processes.
    static let busyBacklogPerWorker = 16

    /// Less of an idle wait than this left is not waited again without a lease (a due time is then at hand).
    static let quietMargin: TimeInterval = 0.01

    /// Renews `tokens`' leases every third of the lease's length until cancelled. A renewal that fails (the
    /// database away) is tried again at the next; if the lease runs out meanwhile, it is as after a crash.
    func keepLeased(_ tokens: Set<String>) async {
        let store = self.store
        let lease = options.lease
        while !Task.isCancelled {
            // On the real clock, not the workers' injected one: a renewal is not an idle wait, and a test that moves
            // the workers' clock when they wait would count it as one (and hang waiting for a send it then skipped).
            do { try await AnyDurationClock.continuous.sleep(for: lease / 3) } catch { return }
            let until = now() + lease.seconds
            _ = try? await threads.perform { () throws(StoreError) in try store.renewLeases(tokens, until: until) }
        }
    }

    /// Gives leased recipients back to the queue unsent (a batch leased as the stop began, or held while an
    /// app's APNs is unreachable), due now for any process (not after the lease's `leaseSeconds`), attempts
    /// unchanged; if that fails, the lease expires as after a crash.
    func release(_ leased: [LeasedDelivery]) async {
        guard !leased.isEmpty else { return }
        let store = self.store
        do {
            try await threads.perform { () throws(StoreError) in try store.release(leased) }
        } catch {
            FileHandle.standardError.write(
                Data("pushbutton serve: releasing \(leased.count) leased recipient(s) failed: \(error)\n".utf8))
        }
    }

    /// How many notifications each of `workers` workers keeps under way on an app's `connections`: together
    /// what the connections carry (APNs serves about 1,000 streams on each), at least 100 each.
    static func inFlight(workers: Int, connections: Int) -> Int {
        max(100, max(1, connections) * 1000 / max(1, workers))
    }

    /// Sends one leased batch; its outcomes, for ``OutcomeRecorder/record(_:)``, and the recipients held
    /// because APNs could not be reached (``APNsCircuit``), to give back to the queue.
    func send(_ leased: [LeasedDelivery]) async -> (completed: [CompletedDelivery], held: [LeasedDelivery]) {
        var held: [LeasedDelivery] = []
        var completed: [CompletedDelivery] = []
        completed.reserveCapacity(leased.count)
        var byApp: [String: [LeasedDelivery]] = [:]
        if let first = leased.first?.app, leased.allSatisfy({ $0.app == first }) {
            byApp[first] = leased  // one app, as almost always: no copy of each row
        } else {
            for delivery in leased { byApp[delivery.app, default: []].append(delivery) }
        }
        for (appID, deliveries) in byApp {
            guard let app = apps[appID], let client = app.client else {
                for delivery in deliveries {
                    completed.append(
                        CompletedDelivery(
                            delivery, outcome: .failed(attempts: 0, cause: "no APNs client for app '\(appID)'"),
                            attempts: 0))
                }
                continue
            }
            let circuit = circuits[appID]
            if circuit?.admit() == .hold {
                hold(deliveries, into: &completed, held: &held)
                continue
            }
            // A slot per row (nil for a malformed one): the rows are not copied into a batch of their own.
            var notifications: [APNsNotification?] = []
            notifications.reserveCapacity(deliveries.count)
            for index in deliveries.indices {
                // Field by field: a copy of the whole row would retain (and release) each of its strings.
                // The intake validated the token; the stored hex is taken as it was kept.
                guard let apnsID = UUIDText.parse(deliveries[index].apnsID),
                    let token = DeviceToken(storedHex: deliveries[index].token)
                else {
                    completed.append(
                        CompletedDelivery(
                            deliveries[index],
                            outcome: .failed(attempts: 0, cause: "the stored token or apns-id is malformed"),
                            attempts: 0))
                    notifications.append(nil)
                    continue
                }
                notifications.append(
                    APNsNotification(
                        deviceToken: token, payload: deliveries[index].payload, topic: deliveries[index].topic,
                        pushType: PushType(rawValue: deliveries[index].pushType), priority: deliveries[index].priority,
                        expiration: deliveries[index].expiration, collapseID: deliveries[index].collapseID,
                        apnsID: apnsID))
            }
            let batch = WorkerBatch(deliveries: deliveries, notifications: consume notifications)
            let started = ContinuousClock.now
            // The workers share the client: together they keep as many under way as its connections carry, not
            // 1,000 each — the rest would only wait in the client's queue, each with its timer.
            let window = Self.inFlight(workers: options.count, connections: app.configuration.connections)
            // The sender's direct path: each answer's outcome is kept on the connection's thread.
            await client.send(polling: batch, maximumInFlight: window) { notification, result, attempts in
                let latency = (ContinuousClock.now - started).seconds
                switch result {
                case .delivered:
                    batch.finish(notification, outcome: .delivered, attempts: attempts, latency: latency)
                case .rejected(_, let status, let reason, let unregisteredAt):
                    let outcome = DeliveryOutcome.rejected(
                        status: status, reason: reason.rawValue, unregisteredAt: unregisteredAt)
                    batch.finish(notification, outcome: outcome, attempts: attempts, latency: latency)
                case .failed(_, let attempts, let cause):
                    guard cause.kind != .unreachable else {
                        // Its last tries never reached APNs: held, unless its expiration passed meanwhile. Attempts
                        // before them (timed out on a connection that then died) are counted, not recorded.
                        let expired = self.unreachableOutcome(expiration: notification.expiration, cause: cause)
                        if let expired {
                            batch.countUnreachable(attempts: attempts)
                            batch.finish(notification, outcome: expired, attempts: 0, latency: latency)
                        } else {
                            batch.hold(notification, attempts: attempts)
                        }
                        return
                    }
                    let outcome = DeliveryOutcome.failed(attempts: attempts, cause: cause.message)
                    batch.finish(notification, outcome: outcome, attempts: attempts, latency: latency)
                }
            }
            metrics.sent(appID, batch.tally)
            let unsent = batch.held()
            let finished = batch.completed()
            let unreachable = batch.unreachable
            circuit?.record(reached: batch.tally.count + unsent.count - unreachable, unreachable: unreachable)
            held += unsent
            if completed.isEmpty { completed = finished } else { completed += finished }  // no copy of each row
        }
        return (completed, held)
    }
}
