import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: single notifications on SQLite are committed in groups, as campaign pages are: those that arrive
/// while the writer is busy share one transaction (one fsync), each caller gets its own answer, and a repeated
/// `Idempotency-Key` within the group is a replay of the first.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct NotificationGroupCommitTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func spec(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: .notification, topic: "com.example.chat", createdAt: t0)
    }

    @Test func notificationsArrivingWhileTheWriterIsBusyShareOneTransaction() async throws {
        let store = try SQLGatewayStore.sqlite(path: try SQLiteStoreTests.temporaryPath())
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await Blocking.run {
                try store.with { _ throws(StoreError) in
                    held.signal()
                    release.wait()
                }
            }
        }
        try await Blocking.run { held.wait() }
        let key = IdempotencyKey(key: "k", fingerprint: "f")
        let requests: [(String, IdempotencyKey?)] = [("n0", nil), ("n1", key), ("n2", nil), ("n3", key)]
        let answers = Task {
            try await withThrowingTaskGroup(of: (Int, EnqueueResult).self) { group in
                for (index, (id, key)) in requests.enumerated() {
                    group.addTask {
                        if index > 1 { await yieldUntil { store.notificationIntake.counts.waiting >= index - 1 } }
                        return try await Blocking.run {
                            let delivery = NewDelivery(
                                token: String(format: "%064x", index + 1), apnsID: "a-\(index)",
                                payload: Array("{}".utf8))
                            return (
                                index,
                                try store.enqueue(Self.spec(id), deliveries: [delivery], idempotency: key, now: Self.t0)
                            )
                        }
                    }
                }
                var answers = Array(repeating: EnqueueResult.created(id: ""), count: requests.count)
                for try await (index, answer) in group { answers[index] = answer }
                return answers
            }
        }
        // The first one's leader waits for the writer; the other three wait for the next group.
        await yieldUntil { store.notificationIntake.counts.waiting >= 3 }
        release.signal()
        try await holder.value
        let results = try await answers.value
        #expect(results[0] == .created(id: "n0"))
        #expect(results[1] == .created(id: "n1"))
        #expect(results[2] == .created(id: "n2"))
        #expect(results[3] == .replayed(id: "n1", sameRequest: true), "the same key later in the same group")
        let counts = store.notificationIntake.counts
        #expect(counts.groups == 2 && counts.requests == 4 && counts.waiting == 0)
        #expect(try store.queueDepth() == 3)
    }
}
