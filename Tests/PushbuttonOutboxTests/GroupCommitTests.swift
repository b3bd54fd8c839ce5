import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonOutbox

extension Outbox {
    /// Transactions committed on the outbox's connection.
    func commitsForTests() -> Int { database.commits }

    /// Holds the actor (as a long commit would) until `released()` holds, saying when it has started.
    func holdForTests(started: Locked<Bool>, until released: @Sendable () -> Bool) {
        started.withLock { $0 = true }
        // Blocks the actor's thread on purpose, so that callers pile up behind it.
        while !released() { sched_yield() }
    }
}

/// Many taps at once are one transaction (one fsync), and a failure in the group loses none of the others.
@Suite struct GroupCommitTests {
    @Test func aGroupIsOneTransaction() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        let before = await outbox.commitsForTests()
        let results = await outbox.enqueue(contentsOf: (0..<100).map { Fixture.request("k\($0)") })
        #expect(await outbox.commitsForTests() - before == 1)
        #expect(results.allSatisfy { if case .success(.added) = $0 { true } else { false } })
        #expect(try await outbox.status().pending == 100)
    }

    @Test func aRequestThatFailsInAGroupIsRolledBackAloneAndTheOthersAreStored() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.query(
            """
            CREATE TRIGGER poison BEFORE INSERT ON outbox WHEN NEW.idempotency_key = 'poison'
            BEGIN SELECT RAISE(ABORT, 'injected failure'); END
            """)
        let before = await outbox.commitsForTests()
        let results = await outbox.enqueue(contentsOf: [
            Fixture.request("a"), Fixture.request("poison"), Fixture.request("b"), Fixture.request("bad\r\nkey"),
            Fixture.request("a"),
        ])
        #expect(await outbox.commitsForTests() - before == 1)
        #expect(try results[0].get() == .added(1) && results[2].get() == .added(2) && results[4].get() == .duplicate)
        #expect(throws: OutboxError.self) { try results[1].get() }
        #expect((try? results[1].get()) == nil)
        if case .failure(let error) = results[1] { #expect(error.code == .storage && "\(error)".contains("injected")) }
        if case .failure(let error) = results[3] { #expect(error.code == .invalidRequest) }
        #expect(try await outbox.entries(.pending).map(\.idempotencyKey) == ["a", "b"])
    }

    @Test func aGroupWhoseCommitFailsIsRetriedOneRequestAtATime() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        // A deferred foreign key fails the COMMIT itself, after every statement succeeded.
        try await outbox.query("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        try await outbox.query(
            "CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)")
        try await outbox.query(
            """
            CREATE TRIGGER breaks_commit AFTER INSERT ON outbox WHEN NEW.idempotency_key = 'breaks-commit'
            BEGIN INSERT INTO child VALUES (999); END
            """)
        let results = await outbox.enqueue(contentsOf: ["a", "breaks-commit", "b"].map { Fixture.request($0) })
        #expect(results.map { (try? $0.get()) != nil } == [true, false, true])
        if case .failure(let error) = results[1] { #expect(error.code == .storage) }
        #expect(try await outbox.entries(.pending).map(\.idempotencyKey) == ["a", "b"])
    }

    @Test(.timeLimit(.minutes(5))) func tapsDeliveredAtOnceShareACommitAndEachReturnsOnceStored() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        let before = await outbox.commitsForTests()
        let started = Locked(false)
        // The actor is held until all 50 callers have come to it (each counts itself just before it calls).
        let calling = Locked(0)
        let hold = Task { await outbox.holdForTests(started: started) { calling.withLock { $0 } == 50 } }
        await yieldUntil { started.withLock { $0 } }
        let path = fixture.path
        let storedWhenReturned = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    calling.withLock { $0 += 1 }
                    try await outbox.deliver(Fixture.request("tap-\(index)"))
                    // Read through another connection, as a restarted process would.
                    let stored = try SQLiteDatabase(path: path).query(
                        "SELECT 1 FROM outbox WHERE idempotency_key = ?", [.text("tap-\(index)")])
                    if !stored.isEmpty { storedWhenReturned.withLock { $0 += 1 } }
                }
            }
            try await group.waitForAll()
        }
        await hold.value
        #expect(storedWhenReturned.withLock { $0 } == 50)
        let commits = await outbox.commitsForTests() - before
        print("group commit: 50 taps delivered at once took \(commits) commit(s)")
        #expect(commits <= 3)
    }
}
