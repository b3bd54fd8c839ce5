import Foundation

/// The gateway's durable state behind one protocol: the device registry, the notification queue with
/// leases, outcomes, idempotency keys and campaigns. ``SQLGatewayStore`` implements it on SQLite (one
/// process) and on PostgreSQL (many processes), and one test suite runs against both.
///
/// Calls are synchronous and may block on I/O: the gateway calls them off its event loop. Every write is
/// committed before the call returns. Taps and stats (a later migration) will join deliveries by
/// notification id and `apns-id`.
public protocol GatewayStore: EventLeaseStore {
    // MARK: Devices

    /// Registers or refreshes a device. A device that APNs declared dead is revived only by a registration
    /// newer than APNs' timestamp.
    @discardableResult
    func register(_ device: DeviceRegistration, now: Date) throws(StoreError) -> DeviceRecord

    /// Forgets a device; `false` when it was not registered.
    func forget(app: String, token: String) throws(StoreError) -> Bool

    func device(app: String, token: String) throws(StoreError) -> DeviceRecord?

    /// The tokens of the app's active devices of a user or with a tag, at most `limit`.
    func tokens(app: String, audience: Audience, limit: Int) throws(StoreError) -> [String]

    /// Whether the device is registered and inactive (dead tokens are not sent to).
    func isInactive(app: String, token: String) throws(StoreError) -> Bool

    /// Marks a device inactive since APNs' timestamp, unless it registered after that; `true` when it did.
    /// `now` is the update's time.
    @discardableResult
    func markInactive(app: String, token: String, since: Date, now: Date) throws(StoreError) -> Bool

    // MARK: The queue

    /// Stores a notification and its recipients in one transaction, due now. With an idempotency key seen
    /// before, nothing is stored and the first request's id comes back.
    func enqueue(_ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date)
        throws(StoreError) -> EnqueueResult

    /// ``enqueue(_:deliveries:idempotency:now:)``, answering a notification created with its record as committed
    /// when the store has it at hand (a single notification's few recipients, built from the values written), so
    /// the caller need not read it back; `nil` otherwise (a replay, a campaign, a scheduled send).
    func enqueueRecorded(
        _ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> (result: EnqueueResult, record: NotificationRecord?)

    /// Adds recipients to an open campaign (one page of its streamed list) in one transaction: `produce` is
    /// called once and hands each recipient to `emit` as it renders it, so a page is never held whole in
    /// memory. Returns how many were added, or `nil` (nothing called) when the campaign is unknown or not open.
    /// When `produce` throws, nothing of the page is stored.
    func append(
        campaign id: String, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> Int?

    /// ``append(campaign:now:produce:)`` with an `Idempotency-Key` scoped to the campaign, stored in the page's
    /// transaction: a key the campaign has seen before stores nothing (`produce` is not called) and says whether
    /// this page matches the first one's fingerprint. `nil` when the campaign is unknown, or not open and the
    /// key is new.
    func append(
        campaign id: String, idempotency: IdempotencyKey, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PageAppendResult?

    /// Leases up to `limit` due recipients (queued and due, or leased with an expired lease) for `duration`,
    /// none of the apps `excludingApps` (those whose APNs cannot be reached: their recipients would only be
    /// given back, and would take the lease's room from other apps'). Several processes may lease at once; none
    /// gets a recipient another holds.
    func lease(limit: Int, duration: TimeInterval, now: Date, excludingApps: Set<String>) throws(StoreError)
        -> [LeasedDelivery]

    /// Holds the leases `tokens` until `until` (a worker whose batch takes longer to send than the lease lasts):
    /// a lease that already ran out and was taken over is left to its new holder. Returns how many batches are
    /// still held.
    @discardableResult
    func renewLeases(_ tokens: Set<String>, until: Date) throws(StoreError) -> Int

    /// Records leased recipients' final outcomes in one transaction. For each, `false` (and nothing changes)
    /// when its lease was lost to another worker, so each recipient ends with exactly one outcome. In the same
    /// transaction a recorded 410 marks its device inactive (as ``markInactive(app:token:since:now:)``) and,
    /// with `webhookEvents`, each recorded rejection or failure queues a ``WebhookEvent``.
    func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes

    /// Claims up to `limit` queued webhook events for `duration` (another process's claim is skipped, an
    /// expired one taken over), oldest first. Handed on, they are removed with ``finishWebhookEvents(_:)``.
    func claimWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [WebhookEvent]

    /// Removes webhook events that were handed on.
    func finishWebhookEvents(_ ids: [Int64]) throws(StoreError)

    /// Leases up to `limit` claimable webhook events for `duration` under a new token, oldest first: never
    /// claimed ones, those whose backoff is over, and those whose holder let its lease run out (a dead process).
    /// The relay renews, finishes or retries them through ``EventLeaseStore``.
    func leaseWebhookEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<WebhookEvent>

    /// Gives leased recipients back (a worker shutting down): queued and due again, with the same `apns-id`.
    /// A lease holds recipients in batches: those of a batch only partly given back come again when the
    /// lease runs out (the rest may still be sending).
    func release(_ deliveries: [LeasedDelivery]) throws(StoreError)

    /// A notification or campaign, its counts by state and up to `limit` recipients after id `after`.
    func notification(id: String, limit: Int, after: Int64) throws(StoreError) -> NotificationRecord?

    /// Cancels a campaign: its queued recipients become cancelled. `nil` when unknown.
    func cancel(campaign id: String, now: Date) throws(StoreError) -> NotificationRecord?

    /// Recipients queued or leased (the queue depth).
    func queueDepth() throws(StoreError) -> Int

    /// A cheap round trip, for `/readyz`.
    func ping() throws(StoreError)

    /// For `/readyz`: whether the store answers and can take writes now (at least a ``ping()``).
    func checkReady() throws(StoreError)

    // MARK: Waking the workers

    /// Calls `wake` (on any thread; keep it quick) whenever recipients may have become due: after an intake
    /// (a notification, a campaign page) has committed in this process, and on PostgreSQL when another
    /// process's intake commits (its `NOTIFY`, heard on a `LISTEN` connection of this store's), or when that
    /// connection comes back after a drop. A hint, not a guarantee: a worker still polls now and then.
    func observeCommittedWork(_ wake: @escaping @Sendable () -> Void) -> WorkObservation

    /// Lets a single notification committed while one of this process's workers waits idle be leased in its
    /// intake's own transaction and handed to that worker in memory (``LeaseHandOff``), instead of waking the
    /// workers to lease it in a transaction of their own.
    func handOffLeases(to handOff: LeaseHandOff)

    /// Calls `heard` (on any thread; keep it quick) with the notifications whose outcomes another process
    /// recorded, of those stored with ``NotificationSpec/wakesWaiters`` (PostgreSQL: a `NOTIFY` sent after the
    /// recording transaction's commit, heard on a `LISTEN` connection of this store's while anyone observes), or with
    /// nil when that connection (re)connects and anything may have been missed. A hint: a waiting request
    /// still ends at its deadline.
    func observeRecordedOutcomes(_ heard: @escaping @Sendable (_ notifications: [String]?) -> Void)
        -> WorkObservation

    // MARK: When (send times, rates)

    /// When the next recipient not due at `now` comes due (a free batch's due time, a held one's lease end);
    /// `nil` when nothing waits. An idle worker's wait ends then, so scheduled work needs no polling.
    func nextDue(now: Date) throws(StoreError) -> Date?

    /// Cancels a single notification: its recipients not yet leased become cancelled (a scheduled one is never
    /// sent). `nil` when no single notification has the id.
    func cancel(notification id: String, now: Date) throws(StoreError) -> NotificationRecord?

    /// How many of a notification's queued recipients wait (scheduled, held, throttled) at `now`, and its
    /// expected finish at its rate.
    func schedule(of id: String, now: Date) throws(StoreError) -> ScheduleCounts

    /// The registered time zones and quiet hours of those of `tokens` that registered either.
    func deviceTimes(app: String, tokens: [String]) throws(StoreError) -> [String: DeviceTimes]
}

extension GatewayStore {
    /// A store that cannot tell: nothing waits (the workers poll).
    public func nextDue(now: Date) throws(StoreError) -> Date? { nil }

    /// A store without single-notification cancelling.
    public func cancel(notification id: String, now: Date) throws(StoreError) -> NotificationRecord? { nil }

    /// A store that cannot tell: nothing waits.
    public func schedule(of id: String, now: Date) throws(StoreError) -> ScheduleCounts { ScheduleCounts() }

    /// A store without time zones.
    public func deviceTimes(app: String, tokens: [String]) throws(StoreError) -> [String: DeviceTimes] { [:] }

    /// A store that cannot tell more is ready when it answers.
    public func checkReady() throws(StoreError) { try ping() }

    /// A store that cannot tell: `wake` is never called (the workers find the work by polling).
    public func observeCommittedWork(_ wake: @escaping @Sendable () -> Void) -> WorkObservation {
        WorkObservation {}
    }

    /// A store that reads a notification back once it is committed.
    public func enqueueRecorded(
        _ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> (result: EnqueueResult, record: NotificationRecord?) {
        (try enqueue(spec, deliveries: deliveries, idempotency: idempotency, now: now), nil)
    }

    /// A store that leases only when asked: nothing is handed over (the workers are woken or poll).
    public func handOffLeases(to handOff: LeaseHandOff) {}

    /// A store that cannot tell (one process: its recorder wakes the waiting requests itself).
    public func observeRecordedOutcomes(_ heard: @escaping @Sendable (_ notifications: [String]?) -> Void)
        -> WorkObservation
    {
        WorkObservation {}
    }

    /// Adds the recipients of an array to an open campaign.
    public func append(campaign id: String, deliveries: [NewDelivery], now: Date) throws(StoreError) -> Int? {
        try append(campaign: id, now: now) { (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
            for delivery in deliveries { try emit(delivery) }
        }
    }

    /// Records leased recipients' final outcomes (``record(_:webhookEvents:now:)`` without webhook events);
    /// for each, whether it was recorded.
    @discardableResult
    public func complete(_ results: [CompletedDelivery], now: Date) throws(StoreError) -> [Bool] {
        try record(results, webhookEvents: false, now: now).recorded
    }

    /// Records one leased recipient's final outcome; `false` when its lease was lost.
    @discardableResult
    public func complete(_ delivery: LeasedDelivery, outcome: DeliveryOutcome, attempts: Int, now: Date)
        throws(StoreError) -> Bool
    {
        try complete([CompletedDelivery(delivery, outcome: outcome, attempts: attempts)], now: now).first ?? false
    }
}

extension GatewayStore {
    /// Leases up to `limit` due recipients of every app for `duration`.
    public func lease(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [LeasedDelivery] {
        try lease(limit: limit, duration: duration, now: now, excludingApps: [])
    }
}
