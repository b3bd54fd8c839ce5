import Foundation
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: a single notification committed while a worker of this process waits idle is leased in its
/// intake's own transaction and handed to that worker in memory (``LeaseHandOff``): no lease of the store's
/// takes it, the recipients handed over are the rows committed, and a process that dies holding such a lease
/// loses nothing — once the lease runs out (the stores' `now`, injected), another process leases the recipient
/// with the same apns-id.
@Suite(.timeLimit(.minutes(3)))
struct IntakeLeaseTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: .notification, topic: "com.example.chat", createdAt: t0)
    }

    static func delivery(_ n: Int) -> NewDelivery {
        NewDelivery(token: String(format: "%064x", n), apnsID: "apns-\(n)", payload: Array(#"{"aps":{}}"#.utf8))
    }

    /// A hand-off with one idle worker (and `busyBacklog` places for busy ones), counting its wake-ups.
    static func handOff(idle: Int = 1, busyBacklog: Int = 0) -> (LeaseHandOff, Locked<Int>) {
        let wakes = Locked(0)
        let handOff = LeaseHandOff(leaseSeconds: 30, busyBacklog: busyBacklog) { wakes.withLock { $0 += 1 } }
        for _ in 0..<idle { handOff.setIdle(true) }
        return (handOff, wakes)
    }

    /// Counts the store's commit signals; the count so far (PostgreSQL's listener raises once it has connected,
    /// for what it may have missed: counted from after).
    static func observeCommits(of store: SQLGatewayStore) async -> (WorkObservation, Locked<Int>, Int) {
        let woken = Locked(0)
        let observation = store.observeCommittedWork { woken.withLock { $0 += 1 } }
        if let listener = store.committedWork.listener {
            await listener.waitUntil { $0.connections >= 1 }
            await yieldUntil { woken.withLock { $0 } >= 1 }
        }
        return (observation, woken, woken.withLock { $0 })
    }

    @Test(arguments: StoreBackend.allCases)
    func aNotificationCommittedWhileAWorkerIsIdleIsHandedToItLeased(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let (handOff, wakes) = Self.handOff()
        store.handOffLeases(to: handOff)
        let (observation, woken, before) = await Self.observeCommits(of: store)
        defer { observation.cancel() }
        let result = try await Blocking.run {
            try store.enqueue(
                Self.spec("n1"), deliveries: [Self.delivery(1), Self.delivery(2)], idempotency: nil, now: Self.t0)
        }
        #expect(result == .created(id: "n1"))
        #expect(handOff.counts.handedOff == 1)
        #expect(wakes.withLock { $0 } == 1, "one worker is woken to take it")
        #expect(woken.withLock { $0 } == before, "no commit signal: nothing is queued for a lease to find")
        let handed = try #require(handOff.take(now: Self.t0))
        #expect(handed.map(\.apnsID) == ["apns-1", "apns-2"])
        #expect(handed.map(\.token) == [String(format: "%064x", 1), String(format: "%064x", 2)])
        #expect(handed.allSatisfy { $0.leases == 1 && $0.notificationID == "n1" && $0.topic == "com.example.chat" })
        #expect(handed.allSatisfy { $0.payload == Array(#"{"aps":{}}"#.utf8) })
        // Already leased in the intake's transaction: a lease finds nothing, and the record reads it leased.
        let leased = try await Blocking.run { try store.lease(limit: 10, duration: 30, now: Self.t0) }
        #expect(leased.isEmpty)
        let record = try #require(try await Blocking.run { try store.notification(id: "n1", limit: 10, after: 0) })
        #expect(record.counts[.leased] == 2)
        // The worker's outcomes count: the lease taken at intake holds the batch.
        let recorded = try await Blocking.run {
            try store.complete(
                handed.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: Self.t0 + 1)
        }
        #expect(recorded == [true, true])
        let after = try #require(try await Blocking.run { try store.notification(id: "n1", limit: 10, after: 0) })
        #expect(after.counts[.delivered] == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func withoutAnIdleWorkerTheNotificationIsQueuedAndTheWorkersWoken(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let (handOff, wakes) = Self.handOff(idle: 0)
        store.handOffLeases(to: handOff)
        let (observation, woken, before) = await Self.observeCommits(of: store)
        defer { observation.cancel() }
        _ = try await Blocking.run {
            try store.enqueue(Self.spec("n2"), deliveries: [Self.delivery(3)], idempotency: nil, now: Self.t0)
        }
        #expect(handOff.counts.handedOff == 0)
        #expect(wakes.withLock { $0 } == 0)
        #expect(woken.withLock { $0 } == before + 1)
        let leased = try await Blocking.run { try store.lease(limit: 10, duration: 30, now: Self.t0) }
        #expect(leased.map(\.apnsID) == ["apns-3"])
    }

    @Test(arguments: StoreBackend.allCases)
    func withEveryWorkerBusyNotificationsWaitLeasedInTheBacklogAndAreTakenTogether(_ backend: StoreBackend)
        async throws
    {
        let store = try await backend.makeStore()
        let (handOff, wakes) = Self.handOff(idle: 0, busyBacklog: 2)
        store.handOffLeases(to: handOff)
        let (observation, woken, before) = await Self.observeCommits(of: store)
        defer { observation.cancel() }
        handOff.setWaitedFor(true)  // the one worker sends a notification: it is waited for
        for n in 5...7 {
            _ = try await Blocking.run {
                try store.enqueue(Self.spec("n\(n)"), deliveries: [Self.delivery(n)], idempotency: nil, now: Self.t0)
            }
        }
        #expect(handOff.counts.handedOff == 2, "the backlog holds two")
        #expect(handOff.busyClaims == 2)
        #expect(wakes.withLock { $0 } == 2)
        #expect(woken.withLock { $0 } == before + 1, "the third is queued, and the workers woken for it")
        // The busy worker's next turn takes both handed over, in one batch; a lease finds only the queued one.
        let handed = try #require(handOff.take(now: Self.t0 + 1, limit: 10))
        #expect(handed.map(\.apnsID) == ["apns-5", "apns-6"])
        #expect(Set(handed.map(\.leaseToken)).count == 2, "each keeps its own lease")
        let leased = try await Blocking.run { try store.lease(limit: 10, duration: 30, now: Self.t0 + 1) }
        #expect(leased.map(\.apnsID) == ["apns-7"])
        let recorded = try await Blocking.run {
            try store.complete(
                handed.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: Self.t0 + 2)
        }
        #expect(recorded == [true, true])
    }

    @Test func onlyAWorkerOnASmallBatchIsWaitedFor() {
        let (handOff, _) = Self.handOff(idle: 0, busyBacklog: 3)
        #expect(!handOff.claim(), "no worker waited for: none would take it soon")
        #expect(!LeaseHandOff.waitsFor(batchOf: LeaseHandOff.smallBatch + 1), "a campaign's large batch")
        #expect(LeaseHandOff.waitsFor(batchOf: 2))
        handOff.setWaitedFor(true)  // a worker with a small batch, or between batches after one
        #expect(handOff.claim())
        handOff.unclaim()
        handOff.setWaitedFor(false)  // it took a large batch, stalled or stopped
        #expect(!handOff.claim())
        #expect(handOff.busyClaims == 1)
    }

    @Test func aTakeGathersWhatWaitedUpToItsLimit() {
        let (handOff, _) = Self.handOff(idle: 0, busyBacklog: 3)
        handOff.setWaitedFor(true)
        for n in 1...3 {
            #expect(handOff.claim())
            let row = LeasedDelivery(
                id: Int64(n), notificationID: "n\(n)", app: "chat", token: "t", apnsID: "a\(n)", payload: [],
                topic: "x", pushType: "alert", priority: nil, expiration: nil, collapseID: nil, leases: 1,
                leaseToken: "l\(n)")
            handOff.hand([row], until: Self.t0 + 30)
        }
        #expect(!handOff.claim(), "the backlog is full")
        #expect(handOff.take(now: Self.t0, limit: 2)?.map(\.apnsID) == ["a1", "a2"])
        #expect(handOff.claim(), "a place came free")
        handOff.unclaim()
        #expect(handOff.take(now: Self.t0, limit: 2)?.map(\.apnsID) == ["a3"])
        #expect(handOff.take(now: Self.t0, limit: 2) == nil)
        #expect(handOff.busyClaims == 4)
    }

    @Test(arguments: StoreBackend.allCases)
    func aProcessThatDiesHoldingALeaseTakenAtIntakeLosesNothing(_ backend: StoreBackend) async throws {
        let (a, b) = try await backend.makeTwoStores()
        let (handOff, _) = Self.handOff()
        a.handOffLeases(to: handOff)
        _ = try await Blocking.run {
            try a.enqueue(Self.spec("n3"), deliveries: [Self.delivery(4)], idempotency: nil, now: Self.t0)
        }
        #expect(handOff.counts.handedOff == 1)
        // A dies before its worker sends: what it was handed is gone with it; its lease still holds the row.
        let early = try await Blocking.run { try b.lease(limit: 10, duration: 30, now: Self.t0 + 29) }
        #expect(early.isEmpty, "not while A's lease holds it")
        let taken = try await Blocking.run { try b.lease(limit: 10, duration: 30, now: Self.t0 + 31) }
        #expect(taken.map(\.apnsID) == ["apns-4"], "the same apns-id: APNs may drop the duplicate")
        #expect(taken.first?.leases == 2)
        let recorded = try await Blocking.run {
            try b.complete(taken.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: Self.t0 + 32)
        }
        #expect(recorded == [true])
    }

    @Test func aHandOffNotTakenByHalfItsLeaseIsLeftToRunOut() {
        let (handOff, _) = Self.handOff()
        #expect(handOff.claim())
        #expect(!handOff.claim(), "one idle worker, one claim")
        let row = LeasedDelivery(
            id: 1, notificationID: "n", app: "chat", token: "t", apnsID: "a", payload: [], topic: "x",
            pushType: "alert", priority: nil, expiration: nil, collapseID: nil, leases: 1, leaseToken: "l")
        handOff.hand([row], until: Self.t0 + 30)
        #expect(handOff.take(now: Self.t0 + 16) == nil, "another process may take it once the lease runs out")
        #expect(handOff.counts == (handedOff: 1, takenLate: 1))
        #expect(handOff.claim())
        handOff.unclaim()
        #expect(handOff.close().isEmpty)
        #expect(!handOff.claim(), "closed: the workers are stopping")
    }
}
