import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

/// The in-process workers: each leases a batch of due recipients, sends them with its app's `APNsClient`
/// (which retries per the `RetryPolicy`, with the same `apns-id`), and records the outcomes in one
/// transaction. A worker killed mid-send leaves its lease to expire; the recipients are then due again, for
/// any process, with the same `apns-id`. A 410 marks the device inactive with APNs' timestamp and, like
/// every final failure, is reported to the webhook.
final class DeliveryWorkers: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let options: WorkerOptions
    let metrics: GatewayMetrics
    let webhook: WebhookNotifier?
    let now: @Sendable () -> Date

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
    }

    /// Runs `options.count` workers until the task is cancelled; each finishes its batch first.
    func run() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<options.count { group.addTask { await self.work() } }
        }
    }

    private func work() async {
        var storeFailures = 0
        while !Task.isCancelled {
            let leased: [LeasedDelivery]
            do {
                leased = try store.lease(limit: options.batchSize, duration: options.lease.seconds, now: now())
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
        for delivery in leased { byApp[delivery.app, default: []].append(delivery) }
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
            var byID: [UUID: LeasedDelivery] = [:]
            var notifications: [APNsNotification] = []
            for delivery in deliveries {
                guard let apnsID = UUID(uuidString: delivery.apnsID), let token = try? DeviceToken(delivery.token)
                else {
                    completed.append(
                        CompletedDelivery(
                            delivery, outcome: .failed(attempts: 0, cause: "the stored token or apns-id is malformed"),
                            attempts: 0))
                    continue
                }
                byID[apnsID] = delivery
                notifications.append(
                    APNsNotification(
                        deviceToken: token, payload: delivery.payload, topic: delivery.topic,
                        pushType: PushType(rawValue: delivery.pushType), priority: delivery.priority,
                        expiration: delivery.expiration, collapseID: delivery.collapseID, apnsID: apnsID))
            }
            let started = ContinuousClock.now
            await client.send(ArraySequence(notifications), maximumInFlight: 1000) { notification, result in
                guard let delivery = byID[notification.apnsID] else { return }
                let latency = (ContinuousClock.now - started).seconds
                switch result {
                case .delivered:
                    metrics.sent(appID, latency: latency, outcome: "delivered", reason: nil)
                    completed.append(CompletedDelivery(delivery, outcome: .delivered, attempts: 1))
                case .rejected(_, let status, let reason, let unregisteredAt):
                    metrics.sent(appID, latency: latency, outcome: "rejected", reason: reason.rawValue)
                    completed.append(
                        CompletedDelivery(
                            delivery,
                            outcome: .rejected(status: status, reason: reason.rawValue, unregisteredAt: unregisteredAt),
                            attempts: 1))
                case .failed(_, let attempts, let cause):
                    metrics.sent(appID, latency: latency, outcome: "failed", reason: nil)
                    completed.append(
                        CompletedDelivery(
                            delivery, outcome: .failed(attempts: attempts, cause: cause), attempts: attempts))
                }
            }
        }
        await record(completed)
    }

    private func record(_ completed: [CompletedDelivery]) async {
        let recorded: [Bool]
        do {
            recorded = try store.complete(completed, now: now())
        } catch {
            // The leases run out and the recipients are sent again, with the same apns-id.
            FileHandle.standardError.write(Data("pushbutton serve: recording outcomes failed: \(error)\n".utf8))
            return
        }
        metrics.refusedLateOutcomes(recorded.filter { !$0 }.count)
        for (result, stored) in zip(completed, recorded) where stored {
            let delivery = result.delivery
            switch result.outcome {
            case .delivered: break
            case .rejected(let status, let reason, let unregisteredAt):
                var details: [String: JSONValue] = ["status": .integer(Int64(status)), "reason": .string(reason)]
                if status == 410 {
                    let since = unregisteredAt ?? now()
                    if (try? store.markInactive(app: delivery.app, token: delivery.token, since: since)) == true {
                        metrics.deactivated(delivery.app)
                    }
                    details["unregistered_at"] = Rendering.milliseconds(since)
                    await webhook?.post(
                        type: "device.unregistered", app: delivery.app, token: delivery.token,
                        notificationID: delivery.notificationID, apnsID: delivery.apnsID, details: details)
                } else {
                    await webhook?.post(
                        type: "notification.failed", app: delivery.app, token: delivery.token,
                        notificationID: delivery.notificationID, apnsID: delivery.apnsID, details: details)
                }
            case .failed(let attempts, let cause):
                await webhook?.post(
                    type: "notification.failed", app: delivery.app, token: delivery.token,
                    notificationID: delivery.notificationID, apnsID: delivery.apnsID,
                    details: ["attempts": .integer(Int64(attempts)), "reason": .string(cause)])
            }
        }
    }
}

/// An array as an `AsyncSequence`, for `APNsClient.send(_:maximumInFlight:onResult:)`.
struct ArraySequence<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]
    init(_ elements: [Element]) { self.elements = elements }

    struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: IndexingIterator<[Element]>
        mutating func next() async -> Element? { iterator.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: elements.makeIterator()) }
}
