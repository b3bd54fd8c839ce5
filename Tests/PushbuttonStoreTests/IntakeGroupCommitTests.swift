import Foundation
import PushbuttonSQLite
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// SQLite's campaign pages are committed in groups: pages that arrive while the writer is busy share one
/// transaction, each caller gets its own count, and a page that fails fails alone.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct IntakeGroupCommitTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func page(_ count: Int, prefix: String, token: String? = nil) -> [NewDelivery] {
        (0..<count).map { index in
            NewDelivery(
                token: token ?? String(format: "%064x", index + 1), apnsID: "\(prefix)-\(index)",
                payload: Array("{}".utf8))
        }
    }

    /// Appends `pages` on threads of their own while the test holds the writer, so all but the first wait
    /// and form one group; returns each page's answer (its count, or its error's text).
    static func appendWhileTheWriterIsHeld(_ store: SQLGatewayStore, _ pages: [[NewDelivery]]) async throws
        -> [String]
    {
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
        // Waited for off Swift's cooperative threads, which the holder's task needs to start.
        try await Blocking.run { held.wait() }
        let answers = Task {
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for (index, page) in pages.enumerated() {
                    group.addTask {
                        try await Blocking.run {
                            do {
                                let count = try store.append(campaign: "c1", deliveries: page, now: Self.t0)
                                return (index, count.map(String.init) ?? "nil")
                            } catch {
                                return (index, "error: \(error)")
                            }
                        }
                    }
                }
                var answers = Array(repeating: "", count: pages.count)
                for try await (index, answer) in group { answers[index] = answer }
                return answers
            }
        }
        // The first page's leader waits for the writer; the others wait for the next group (threads of their own,
        // blocked in the store, which says nothing when they arrive).
        await yieldUntil { store.intake.counts.waiting >= pages.count - 1 }
        release.signal()
        try await holder.value
        return try await answers.value
    }

    @Test func pagesArrivingWhileTheWriterIsBusyShareOneTransaction() async throws {
        let store = try SQLGatewayStore.sqlite(path: try SQLiteStoreTests.temporaryPath())
        _ = try store.enqueue(
            NotificationSpec(id: "c1", app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: Self.t0),
            deliveries: [], idempotency: nil, now: Self.t0)
        let pages = (0..<4).map { Self.page(600 + $0, prefix: "p\($0)") }
        let answers = try await Self.appendWhileTheWriterIsHeld(store, pages)
        #expect(answers == ["600", "601", "602", "603"])
        let counts = store.intake.counts
        #expect(counts.groups == 2 && counts.requests == 4 && counts.waiting == 0)
        let record = try #require(try store.notification(id: "c1", limit: 0, after: 0))
        #expect(record.counts == [.queued: 2_406])
        #expect(try store.queueDepth() == 2_406)
        // Every recipient leases once: the batches of the grouped pages cover their own rows only.
        var leased = Set<String>()
        while true {
            let lease = try store.lease(limit: 1_000, duration: 60, now: Self.t0 + 1)
            if lease.isEmpty { break }
            for delivery in lease { #expect(leased.insert(delivery.apnsID).inserted) }
        }
        #expect(leased.count == 2_406)
    }

    @Test func aPageThatFailsInAGroupFailsAlone() async throws {
        let path = try SQLiteStoreTests.temporaryPath()
        let store = try SQLGatewayStore.sqlite(path: path)
        _ = try store.enqueue(
            NotificationSpec(id: "c1", app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: Self.t0),
            deliveries: [], idempotency: nil, now: Self.t0)
        // A trigger refuses one page's rows (the way a full disk or a broken constraint would refuse it).
        let database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            CREATE TRIGGER refuse_bad BEFORE INSERT ON deliveries WHEN NEW.token = 'bad'
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
            """)
        let pages = [
            Self.page(10, prefix: "a"), Self.page(20, prefix: "b"), Self.page(30, prefix: "c", token: "bad"),
            Self.page(40, prefix: "d"),
        ]
        let answers = try await Self.appendWhileTheWriterIsHeld(store, pages)
        #expect(answers[0] == "10" && answers[1] == "20" && answers[3] == "40")
        #expect(answers[2].contains("refused by the test"))
        let record = try #require(try store.notification(id: "c1", limit: 0, after: 0))
        #expect(record.counts == [.queued: 70])
        #expect(try store.queueDepth() == 70)
    }
}
