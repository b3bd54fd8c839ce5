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
/// The store's calls block (SQLite's fsync, PostgreSQL's round trips): they run on threads of their own
/// (``threads``), never on Swift's cooperative pool, whose few threads the APNs client's work needs.
final class DeliveryWorkers: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let options: WorkerOptions
    let metrics: GatewayMetrics
    let webhook: WebhookNotifier?
    let now: @Sendable () -> Date
    /// One thread per worker, plus one for the webhook relay.
    let threads: HandlerThreads

    init(
        store: any GatewayStore, apps: [String: AppRuntime], options: WorkerOptions, metrics: GatewayMetrics,
        webhook: WebhookNotifier?, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.apps = apps
        self.options = options
        self.metrics = metrics
        self.webhook = webhook
        self.now = now
        threads = HandlerThreads(count: options.count + 1, name: "pb-store")
    }

    /// Runs `options.count` workers (and the webhook relay) until the task is cancelled; each finishes its
    /// batch first. Then the store threads end.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<options.count { group.addTask { await self.work() } }
            if let webhook {
                let relay = WebhookRelay(store: store, webhook: webhook, threads: threads, now: now)
                group.addTask { await relay.run() }
            }
        }
        await threads.stop()
    }

    private func work() async {
        var storeFailures = 0
        let store = self.store
        while !Task.isCancelled {
            let leased: [LeasedDelivery]
            do {
                let (limit, duration, at) = (options.batchSize, options.lease.seconds, now())
                leased = try await threads.perform { () throws(StoreError) in
                    try store.lease(limit: limit, duration: duration, now: at)
                }
                storeFailures = 0
            } catch {
                storeFailures += 1
                if storeFailures == 1 {
                    FileHandle.standardError.write(Data("pushbutton serve: leasing failed: \(error)\n".utf8))
                }
                try? await Task.sleep(for: min(options.pollInterval * storeFailures, .seconds(5)))
                continue
            }
            if leased.isEmpty {
                try? await Task.sleep(for: options.pollInterval)
                continue
            }
            await send(leased)
        }
    }

    /// Sends one leased batch and records every outcome.
    func send(_ leased: [LeasedDelivery]) async {
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
            var malformed = Set<Int64>()
            var notifications: [APNsNotification] = []
            notifications.reserveCapacity(deliveries.count)
            for delivery in deliveries {
                // The intake validated the token; the stored hex is taken as it was kept.
                guard let apnsID = UUIDText.parse(delivery.apnsID), let token = DeviceToken(storedHex: delivery.token)
                else {
                    completed.append(
                        CompletedDelivery(
                            delivery, outcome: .failed(attempts: 0, cause: "the stored token or apns-id is malformed"),
                            attempts: 0))
                    malformed.insert(delivery.id)
                    continue
                }
                notifications.append(
                    APNsNotification(
                        deviceToken: token, payload: delivery.payload, topic: delivery.topic,
                        pushType: PushType(rawValue: delivery.pushType), priority: delivery.priority,
                        expiration: delivery.expiration, collapseID: delivery.collapseID, apnsID: apnsID))
            }
            let sendable = malformed.isEmpty ? deliveries : deliveries.filter { !malformed.contains($0.id) }
            let batch = WorkerBatch(deliveries: sendable, notifications: notifications)
            let (metrics, started) = (self.metrics, ContinuousClock.now)
            // The sender's direct path: each answer's outcome is kept on the connection's thread.
            await client.send(polling: batch, maximumInFlight: 1000) { notification, result, attempts in
                let latency = (ContinuousClock.now - started).seconds
                switch result {
                case .delivered:
                    guard batch.finish(notification, outcome: .delivered, attempts: attempts) else { return }
                    metrics.sent(appID, latency: latency, outcome: "delivered", reason: nil)
                case .rejected(_, let status, let reason, let unregisteredAt):
                    let outcome = DeliveryOutcome.rejected(
                        status: status, reason: reason.rawValue, unregisteredAt: unregisteredAt)
                    guard batch.finish(notification, outcome: outcome, attempts: attempts) else { return }
                    metrics.sent(appID, latency: latency, outcome: "rejected", reason: reason.rawValue)
                case .failed(_, let attempts, let cause):
                    let outcome = DeliveryOutcome.failed(attempts: attempts, cause: cause.message)
                    guard batch.finish(notification, outcome: outcome, attempts: attempts) else { return }
                    metrics.sent(appID, latency: latency, outcome: "failed", reason: nil)
                }
            }
            completed += batch.completed()
        }
        await record(completed)
    }

    /// Records the batch's outcomes, the 410s' deactivations and the webhook events in one transaction.
    private func record(_ completed: [CompletedDelivery]) async {
        let (store, events, at) = (self.store, webhook != nil, now())
        let recorded: RecordedOutcomes
        do {
            recorded = try await threads.perform { () throws(StoreError) in
                try store.record(completed, webhookEvents: events, now: at)
            }
        } catch {
            // The leases run out and the recipients are sent again, with the same apns-id.
            FileHandle.standardError.write(Data("pushbutton serve: recording outcomes failed: \(error)\n".utf8))
            return
        }
        metrics.refusedLateOutcomes(recorded.recorded.filter { !$0 }.count)
        for (app, count) in recorded.deactivated { metrics.deactivated(app, count) }
    }
}
