import Foundation
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonGateway

/// The workers' group commit: batches handed in while a transaction runs share the next one, every outcome
/// is recorded once, and a batch holding a recipient another batch of the call holds (a lease that ran out and
/// was taken again) waits for a call of its own; a failed call is tried again while the leases last.
@Suite(.timeLimit(.minutes(2)))
struct OutcomeRecorderTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A SQLite store with one notification of `count` recipients.
    static func seeded(_ count: Int, directory: String) throws -> SQLGatewayStore {
        let inner = try SQLGatewayStore.sqlite(path: directory + "/gateway.db", now: t0)
        let deliveries = (0..<count).map { index in
            NewDelivery(
                token: String(format: "%064x", index + 1), apnsID: UUID().uuidString.lowercased(),
                payload: Array("{}".utf8))
        }
        _ = try inner.enqueue(
            NotificationSpec(id: "n1", app: "chat", kind: .notification, topic: "com.example.chat", createdAt: t0),
            deliveries: deliveries, idempotency: nil, now: t0)
        return inner
    }

    /// A SQLite store with one notification of `count` recipients, and a wrapper whose first `record` waits
    /// until `gate` is opened.
    static func store(_ count: Int, directory: String, gate: DispatchSemaphore) throws -> ThreadRecordingStore {
        let inner = try seeded(count, directory: directory)
        let first = Atomic(true)
        return ThreadRecordingStore(inner) { _ in
            if first.exchange(false, ordering: .relaxed) { gate.wait() }
        }
    }

    static func delivered(_ leased: [LeasedDelivery]) -> [CompletedDelivery] {
        leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }
    }

    /// Waits until `condition` holds: the recorder's threads and the gated store change what it reads and say
    /// nothing when they have (the suite's time limit ends a wait that never ends).
    static func until(_ condition: () -> Bool) async throws {
        await yieldUntil(condition)
        #expect(condition())
    }

    static func directory() throws -> String {
        let directory = NSTemporaryDirectory() + "pushbutton-recorder-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func batchesHandedInDuringATransactionShareTheNextOne() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gate = DispatchSemaphore(value: 0)
        let store = try Self.store(40, directory: directory, gate: gate)
        let leases = try (0..<4).map { _ in try store.lease(limit: 10, duration: 60, now: Self.t0) }
        #expect(leases.map(\.count) == [10, 10, 10, 10])
        let threads = HandlerThreads(count: 2, name: "pb-test")
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: GatewayMetrics(), webhookEvents: false, now: { Self.t0 })
        let first = Task { await recorder.record(Self.delivered(leases[0])) }
        try await Self.until { store.recordCalls.count == 1 }
        let others = leases[1...].map { lease in Task { await recorder.record(Self.delivered(lease)) } }
        try await Self.until { recorder.waiting == 3 }
        gate.signal()
        await first.value
        for other in others { await other.value }
        #expect(store.recordCalls == [10, 30], "the three that waited, in one transaction")
        let record = try #require(try store.notification(id: "n1", limit: 100, after: 0))
        #expect(record.counts == [.delivered: 40])
        #expect(record.deliveries.allSatisfy { $0.attempts == 1 })
        await threads.stop()
    }

    @Test func aBatchSharingARecipientWithAnotherOfTheCallWaitsForTheNext() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gate = DispatchSemaphore(value: 0)
        let store = try Self.store(20, directory: directory, gate: gate)
        let held = try store.lease(limit: 10, duration: 60, now: Self.t0)
        let current = try store.lease(limit: 10, duration: 60, now: Self.t0)
        // The same recipients under a lease that has passed on: its outcomes must be refused, not counted.
        let stale = current.map { delivery in
            var delivery = delivery
            delivery.leaseToken = "a lease that ran out"
            return delivery
        }
        let threads = HandlerThreads(count: 2, name: "pb-test")
        let metrics = GatewayMetrics()
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: metrics, webhookEvents: false, now: { Self.t0 })
        let first = Task { await recorder.record(Self.delivered(held)) }
        try await Self.until { store.recordCalls.count == 1 }
        let late = Task { await recorder.record(Self.delivered(stale)) }
        try await Self.until { recorder.waiting == 1 }
        let fresh = Task { await recorder.record(Self.delivered(current)) }
        try await Self.until { recorder.waiting == 2 }
        gate.signal()
        await first.value
        await late.value
        await fresh.value
        #expect(store.recordCalls == [10, 10, 10], "the stale batch and the current one in calls of their own")
        let record = try #require(try store.notification(id: "n1", limit: 100, after: 0))
        #expect(record.counts == [.delivered: 20])
        #expect(metrics.render(queueDepth: nil).contains("pushbutton_late_outcomes_refused_total 10\n"))
        await threads.stop()
    }

    /// A store whose first `failures` record calls fail (the database restarting).
    static func failingStore(_ count: Int, directory: String, failures: Int) throws -> ThreadRecordingStore {
        let inner = try seeded(count, directory: directory)
        let left = Atomic(failures)
        return ThreadRecordingStore(inner) { _ throws(StoreError) in
            if left.subtract(1, ordering: .relaxed).oldValue > 0 {
                throw StoreError(.database, "server closed the connection unexpectedly", context: "recording")
            }
        }
    }

    /// A failed call is tried again after a backoff on the recorder's clock, with the batches handed in
    /// meanwhile, and the caller returns only once its outcomes are stored: an outage shorter than the lease
    /// loses no outcome, so nothing is sent again.
    @Test func aFailedCallIsTriedAgainUntilTheOutcomesAreStored() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.failingStore(20, directory: directory, failures: 3)
        let leases = try (0..<2).map { _ in try store.lease(limit: 10, duration: 60, now: Self.t0) }
        let clock = ManualClock()
        let threads = HandlerThreads(count: 2, name: "pb-test")
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: GatewayMetrics(), webhookEvents: false,
            retryLimit: .seconds(60), clock: AnyDurationClock(clock), now: { Self.t0 })
        let returned = Locked(0)
        let first = Task {
            await recorder.record(Self.delivered(leases[0]))
            returned.withLock { $0 += 1 }
        }
        // The first call fails; its retry waits 50 ms on the clock, and a batch handed in meanwhile joins it.
        try await Self.until { store.recordCalls.count == 1 }
        await clock.waitForSleepers(1)
        let second = Task {
            await recorder.record(Self.delivered(leases[1]))
            returned.withLock { $0 += 1 }
        }
        try await Self.until { recorder.waiting == 2 }
        #expect(returned.withLock { $0 } == 0, "nobody returns while the outcomes are not stored")
        // Two more failures (100 ms, then 200 ms of backoff), then the call that commits.
        for (calls, wait) in [(2, 50), (3, 100), (4, 200)] {
            clock.advance(by: .milliseconds(wait))
            try await Self.until { store.recordCalls.count == calls }
            if calls < 4 { await clock.waitForSleepers(1) }
        }
        await first.value
        await second.value
        #expect(store.recordCalls == [10, 20, 20, 20], "the retries carry both batches")
        let record = try #require(try store.notification(id: "n1", limit: 100, after: 0))
        #expect(record.counts == [.delivered: 20])
        await threads.stop()
    }

    /// Past the retry limit (the lease's length) a batch is given up: its caller returns and nothing is stored,
    /// so the lease runs out and the recipients are sent again — as after a crash. Once the workers stop, the
    /// next failure gives up at once.
    @Test func aCallFailingPastTheLeaseOrWhileStoppingIsGivenUp() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.failingStore(20, directory: directory, failures: 1_000)
        let leases = try (0..<2).map { _ in try store.lease(limit: 10, duration: 60, now: Self.t0) }
        let clock = ManualClock()
        let threads = HandlerThreads(count: 2, name: "pb-test")
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: GatewayMetrics(), webhookEvents: false,
            retryLimit: .seconds(1), clock: AnyDurationClock(clock), now: { Self.t0 })
        let first = Task { await recorder.record(Self.delivered(leases[0])) }
        try await Self.until { store.recordCalls.count == 1 }
        // 50 + 100 + 200 + 400 ms of backoff is under the second; the call after the next wait (800 ms) is past it.
        for (calls, wait) in [(2, 50), (3, 100), (4, 200), (5, 400), (6, 800)] {
            await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(wait))
            try await Self.until { store.recordCalls.count == calls }
        }
        await first.value
        #expect(store.recordCalls.count == 6, "tried again until a second had passed, then given up")

        recorder.stopRetrying()
        await recorder.record(Self.delivered(leases[1]))
        #expect(store.recordCalls.count == 7, "while stopping: one call, no retry")
        let record = try #require(try store.notification(id: "n1", limit: 100, after: 0))
        #expect(record.counts == [.leased: 20], "nothing stored: the leases will run out")
        await threads.stop()
    }

    /// Once the process drains (SIGTERM), a failed call is given up at once: a worker waiting for its last batch's
    /// recording does not outlast the shutdown grace retrying.
    @Test func aCallFailingWhileTheProcessDrainsIsGivenUpAtOnce() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Self.failingStore(10, directory: directory, failures: 1_000)
        let lease = try store.lease(limit: 10, duration: 60, now: Self.t0)
        let drain = DrainState()
        let threads = HandlerThreads(count: 1, name: "pb-test")
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: GatewayMetrics(), webhookEvents: false,
            retryLimit: .seconds(60), clock: AnyDurationClock(ManualClock()), drain: drain, now: { Self.t0 })
        drain.begin()
        await recorder.record(Self.delivered(lease))
        #expect(store.recordCalls == [10], "one call, no retry")
        await threads.stop()
    }

    @Test func nothingToRecordMakesNoCall() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let gate = DispatchSemaphore(value: 1)
        let store = try Self.store(1, directory: directory, gate: gate)
        let threads = HandlerThreads(count: 1, name: "pb-test")
        let recorder = OutcomeRecorder(
            store: store, threads: threads, metrics: GatewayMetrics(), webhookEvents: false, now: { Self.t0 })
        await recorder.record([])
        #expect(store.recordCalls.isEmpty)
        await threads.stop()
    }
}
