import Foundation
import PushbuttonStore
import PushbuttonSupport

@testable import PushbuttonGateway

/// A store that records the name of the thread each call of the workers' runs on, and otherwise passes every
/// call to the store it wraps.
final class ThreadRecordingStore: GatewayStore {
    let inner: any GatewayStore
    private let names = Locked<[String]>([])
    private let recordSizes = Locked<[Int]>([])
    private let leased = Locked<Set<String>>([])
    /// Called on the store thread before each `record` is passed on, with how many outcomes it has; what it
    /// throws fails the call.
    let beforeRecord: (@Sendable (Int) throws(StoreError) -> Void)?

    init(_ inner: any GatewayStore, beforeRecord: (@Sendable (Int) throws(StoreError) -> Void)? = nil) {
        self.inner = inner
        self.beforeRecord = beforeRecord
    }

    /// The apps of every recipient leased so far.
    var leasedApps: Set<String> { leased.withLock { $0 } }

    /// How many outcomes each `record` call had, in call order.
    var recordCalls: [Int] { recordSizes.withLock { $0 } }

    /// The threads the workers' calls (lease, record, the webhook events) ran on, in call order.
    var workerThreads: [String] { names.withLock { $0 } }

    private func note() {
        let name = HandlerThreads.currentThreadName
        names.withLock { $0.append(name) }
    }

    func register(_ device: DeviceRegistration, now: Date) throws(StoreError) -> DeviceRecord {
        try inner.register(device, now: now)
    }
    func forget(app: String, token: String) throws(StoreError) -> Bool { try inner.forget(app: app, token: token) }
    func observeCommittedWork(_ wake: @escaping @Sendable () -> Void) -> WorkObservation {
        inner.observeCommittedWork(wake)
    }
    func device(app: String, token: String) throws(StoreError) -> DeviceRecord? {
        try inner.device(app: app, token: token)
    }
    func tokens(app: String, audience: Audience, limit: Int) throws(StoreError) -> [String] {
        try inner.tokens(app: app, audience: audience, limit: limit)
    }
    func isInactive(app: String, token: String) throws(StoreError) -> Bool {
        try inner.isInactive(app: app, token: token)
    }
    func markInactive(app: String, token: String, since: Date, now: Date) throws(StoreError) -> Bool {
        try inner.markInactive(app: app, token: token, since: since, now: now)
    }
    func enqueue(_ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date)
        throws(StoreError) -> EnqueueResult
    {
        try inner.enqueue(spec, deliveries: deliveries, idempotency: idempotency, now: now)
    }
    func append(
        campaign id: String, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> Int? {
        try inner.append(campaign: id, now: now, produce: produce)
    }
    func append(
        campaign id: String, idempotency: IdempotencyKey, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PageAppendResult? {
        try inner.append(campaign: id, idempotency: idempotency, now: now, produce: produce)
    }
    func lease(limit: Int, duration: TimeInterval, now: Date, excludingApps: Set<String>) throws(StoreError)
        -> [LeasedDelivery]
    {
        note()
        let deliveries = try inner.lease(limit: limit, duration: duration, now: now, excludingApps: excludingApps)
        leased.withLock { $0.formUnion(deliveries.map(\.app)) }
        return deliveries
    }
    func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes
    {
        note()
        recordSizes.withLock { $0.append(results.count) }
        try beforeRecord?(results.count)
        return try inner.record(results, webhookEvents: webhookEvents, now: now)
    }
    func claimWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [WebhookEvent] {
        note()
        return try inner.claimWebhookEvents(limit: limit, duration: duration, now: now)
    }
    func finishWebhookEvents(_ ids: [Int64]) throws(StoreError) {
        note()
        try inner.finishWebhookEvents(ids)
    }
    func leaseWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<WebhookEvent>
    {
        note()
        return try inner.leaseWebhookEvents(limit: limit, duration: duration, now: now)
    }
    func renewEventLease(_ lease: EventLease, until: Date) throws(StoreError) -> Int {
        note()
        return try inner.renewEventLease(lease, until: until)
    }
    func finishEvents(_ ids: [Int64], lease: EventLease) throws(StoreError) -> Int {
        note()
        return try inner.finishEvents(ids, lease: lease)
    }
    func retryEvents(_ ids: [Int64], lease: EventLease, at: Date, failed: Bool, maximumAttempts: Int)
        throws(StoreError) -> [Int64]
    {
        note()
        return try inner.retryEvents(ids, lease: lease, at: at, failed: failed, maximumAttempts: maximumAttempts)
    }
    func release(_ deliveries: [LeasedDelivery]) throws(StoreError) { try inner.release(deliveries) }
    func renewLeases(_ tokens: Set<String>, until: Date) throws(StoreError) -> Int {
        note()
        return try inner.renewLeases(tokens, until: until)
    }
    func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord? {
        try inner.notification(id: id, limit: limit, after: after)
    }
    func cancel(campaign id: String, now: Date) throws(StoreError) -> NotificationRecord? {
        try inner.cancel(campaign: id, now: now)
    }
    func queueDepth() throws(StoreError) -> Int { try inner.queueDepth() }
    func ping() throws(StoreError) { try inner.ping() }
}
