import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: single notifications are committed in groups, as SQLite's campaign pages are, on both stores:
/// those that arrive while a commit is under way share one transaction (one fsync; on PostgreSQL one
/// `NOTIFY`), each caller gets its own answer, a repeated `Idempotency-Key` within the group is a replay of the
/// first, and a request that fails inside a group fails alone.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct NotificationGroupCommitTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: .notification, topic: "com.example.chat", createdAt: t0)
    }

    /// Borrows every connection of the store's pool (SQLite's one writer, PostgreSQL's four), so the next
    /// intake's leader waits for one and what arrives meanwhile gathers behind it; returns the task that gives
    /// them back once `release` is signalled.
    static func holdConnections(
        of store: SQLGatewayStore, backend: StoreBackend, release: DispatchSemaphore
    ) async throws -> Task<Void, any Error> {
        let held = DispatchSemaphore(value: 0)
        let count = backend == .sqlite ? 1 : 4
        let holder = Task { try await Blocking.run { try hold(count, of: store, held: held, release: release) } }
        try await Blocking.run { held.wait() }
        return holder
    }

    private static func hold(
        _ remaining: Int, of store: SQLGatewayStore, held: DispatchSemaphore, release: DispatchSemaphore
    ) throws(StoreError) {
        guard remaining > 0 else {
            held.signal()
            release.wait()
            return
        }
        try store.with { _ throws(StoreError) in try hold(remaining - 1, of: store, held: held, release: release) }
    }

    /// Enqueues fillers that lead a group each until every leader (SQLite 1, PostgreSQL 4) waits for a
    /// connection, then `requests` (id and key), one recipient each, queued in order behind them; each request's
    /// answer or error, in order (the fillers' are left out).
    static func submit(_ requests: [(String, IdempotencyKey?)], to store: SQLGatewayStore) -> Task<
        [Result<EnqueueResult, StoreError>], Never
    > {
        let leaders = store.notificationIntake.maximumLeaders
        let all = (0..<leaders).map { ("filler-\($0)", IdempotencyKey?.none) } + requests
        return Task {
            await withTaskGroup(of: (Int, Result<EnqueueResult, StoreError>).self) { group in
                for (index, (id, key)) in all.enumerated() {
                    group.addTask {
                        let intake = store.notificationIntake
                        if index < leaders {
                            await yieldUntil { intake.counts.leading >= index }
                        } else {
                            await yieldUntil {
                                intake.counts.leading == leaders && intake.counts.waiting >= index - leaders
                            }
                        }
                        let result = try? await Blocking.run { () -> Result<EnqueueResult, StoreError> in
                            let delivery = NewDelivery(
                                token: String(format: "%064x", index + 1), apnsID: "a-\(id)",
                                payload: Array("{}".utf8))
                            return Result { () throws(StoreError) -> EnqueueResult in
                                try store.enqueue(Self.spec(id), deliveries: [delivery], idempotency: key, now: Self.t0)
                            }
                        }
                        return (index, result ?? .failure(StoreError(.inconsistent, "not run", context: "test")))
                    }
                }
                var answers = Array(
                    repeating: Result<EnqueueResult, StoreError>.success(.created(id: "")), count: all.count)
                for await (index, answer) in group { answers[index] = answer }
                return Array(answers.dropFirst(leaders))
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func notificationsArrivingWhileACommitIsUnderWayShareOneTransaction(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        let release = DispatchSemaphore(value: 0)
        let holder = try await Self.holdConnections(of: store, backend: backend, release: release)
        let key = IdempotencyKey(key: "k", fingerprint: "f")
        let leaders = store.notificationIntake.maximumLeaders
        #expect(leaders == (backend == .sqlite ? 1 : SQLGatewayStore.postgresIntakeLeaders))
        let answers = Self.submit([("n0", nil), ("n1", key), ("n2", nil), ("n3", key)], to: store)
        // Every leader waits for a connection (a filler each); the four wait for the next group.
        await yieldUntil { store.notificationIntake.counts.waiting >= 4 }
        release.signal()
        try await holder.value
        let results = await answers.value.map { try? $0.get() }
        #expect(results[0] == .created(id: "n0"))
        #expect(results[1] == .created(id: "n1"))
        #expect(results[2] == .created(id: "n2"))
        #expect(results[3] == .replayed(id: "n1", sameRequest: true), "the same key later in the same group")
        let counts = store.notificationIntake.counts
        #expect(counts.groups == leaders + 1 && counts.requests == leaders + 4 && counts.waiting == 0)
        #expect(try await Blocking.run { try store.queueDepth() } == leaders + 3)
    }

    @Test(arguments: StoreBackend.allCases)
    func aRequestThatFailsInsideAGroupFailsAlone(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        // A notification id already stored: its second INSERT fails (and on PostgreSQL aborts the transaction).
        let taken = NewDelivery(token: String(format: "%064x", 99), apnsID: "a-taken", payload: Array("{}".utf8))
        _ = try await Blocking.run {
            try store.enqueue(Self.spec("taken"), deliveries: [taken], idempotency: nil, now: Self.t0)
        }
        let release = DispatchSemaphore(value: 0)
        let holder = try await Self.holdConnections(of: store, backend: backend, release: release)
        let leaders = store.notificationIntake.maximumLeaders
        let answers = Self.submit([("n0", nil), ("n1", nil), ("taken", nil), ("n3", nil)], to: store)
        await yieldUntil { store.notificationIntake.counts.waiting >= 4 }
        release.signal()
        try await holder.value
        let results = await answers.value
        #expect((try? results[0].get()) == .created(id: "n0"), "committed again on its own after the group failed")
        #expect((try? results[1].get()) == .created(id: "n1"))
        #expect((try? results[2].get()) == nil, "the duplicate fails")
        #expect((try? results[3].get()) == .created(id: "n3"))
        // The first notification, the fillers alone, then the four in one group (tried together, rolled back,
        // then each in a transaction of its own, by the same leader).
        let counts = store.notificationIntake.counts
        #expect(counts.groups == 1 + leaders + 1 && counts.requests == 1 + leaders + 4 && counts.waiting == 0)
        #expect(
            try await Blocking.run { try store.queueDepth() } == 1 + leaders + 3, "nothing of the failed group stayed")
    }
}
