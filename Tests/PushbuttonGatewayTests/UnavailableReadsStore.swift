import Foundation
import PushbuttonStore

/// A store whose reads of a notification and whose ping fail with `failure` (as a database that lost a table
/// or its connection would), and that passes every other call to the store it wraps.
final class UnavailableReadsStore: GatewayStore {
    let inner: any GatewayStore
    let failure: StoreError

    init(_ inner: any GatewayStore, failure: StoreError) {
        self.inner = inner
        self.failure = failure
    }

    func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord? {
        throw failure
    }
    func ping() throws(StoreError) { throw failure }

    func register(_ device: DeviceRegistration, now: Date) throws(StoreError) -> DeviceRecord {
        try inner.register(device, now: now)
    }
    func forget(app: String, token: String) throws(StoreError) -> Bool { try inner.forget(app: app, token: token) }
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
        try inner.lease(limit: limit, duration: duration, now: now, excludingApps: excludingApps)
    }
    func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes
    {
        try inner.record(results, webhookEvents: webhookEvents, now: now)
    }
    func claimWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [WebhookEvent] {
        try inner.claimWebhookEvents(limit: limit, duration: duration, now: now)
    }
    func finishWebhookEvents(_ ids: [Int64]) throws(StoreError) { try inner.finishWebhookEvents(ids) }
    func leaseWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<WebhookEvent>
    {
        try inner.leaseWebhookEvents(limit: limit, duration: duration, now: now)
    }
    func renewEventLease(_ lease: EventLease, until: Date) throws(StoreError) -> Int {
        try inner.renewEventLease(lease, until: until)
    }
    func finishEvents(_ ids: [Int64], lease: EventLease) throws(StoreError) -> Int {
        try inner.finishEvents(ids, lease: lease)
    }
    func retryEvents(_ ids: [Int64], lease: EventLease, at: Date, failed: Bool, maximumAttempts: Int)
        throws(StoreError) -> [Int64]
    {
        try inner.retryEvents(ids, lease: lease, at: at, failed: failed, maximumAttempts: maximumAttempts)
    }
    func release(_ deliveries: [LeasedDelivery]) throws(StoreError) { try inner.release(deliveries) }
    func renewLeases(_ tokens: Set<String>, until: Date) throws(StoreError) -> Int {
        try inner.renewLeases(tokens, until: until)
    }
    func cancel(campaign id: String, now: Date) throws(StoreError) -> NotificationRecord? {
        try inner.cancel(campaign: id, now: now)
    }
    func queueDepth() throws(StoreError) -> Int { try inner.queueDepth() }
}
