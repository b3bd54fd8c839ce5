import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSQLite
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonOutbox

/// Answers each request with the next scripted status (or throws for `nil`), recording what it got.
final class ScriptedSender: OutboxSender {
    let script: Locked<[Int?]>
    let received = Locked([OutgoingRequest]())
    init(_ script: [Int?]) { self.script = Locked(script) }
    func send(_ request: OutgoingRequest) async throws -> Int {
        received.withLock { $0.append(request) }
        let next = script.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
        guard let next else { throw URLError(.cannotConnectToHost) }
        return next
    }
}

/// A temporary database path and a clock the test moves.
struct Fixture {
    let directory: URL
    let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var path: String { directory.appendingPathComponent("outbox.sqlite").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func outbox(_ options: OutboxOptions = OutboxOptions()) throws -> Outbox {
        let time = time
        return try Outbox(path: path, options: options, now: { time.withLock { $0 } }, jitter: { 1 })
    }

    func advance(_ seconds: Double) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    static func request(_ key: String, url: String = "https://api.test/like") -> BackendRequest {
        BackendRequest(
            url: url, body: ["id": 42], idempotencyKey: key, notificationIdentifier: "n1", actionIdentifier: "like")
    }
}

@Suite struct OutboxTests {
    @Test func theDatabaseIsPrivateToTheUser() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("k1"))
        for file in [fixture.path, fixture.path + "-wal"] {
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }
    }

    @Test func enqueueingIsDurableAndIdempotent() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        do {
            let outbox = try fixture.outbox()
            #expect(try await outbox.enqueue(Fixture.request("k1")) == .added(1))
            #expect(try await outbox.enqueue(Fixture.request("k1")) == .duplicate)
        }
        // A new connection (a restarted app) sees the committed entry.
        let reopened = try fixture.outbox()
        let pending = try await reopened.entries(.pending)
        #expect(pending.map(\.idempotencyKey) == ["k1"] && pending.first?.body == ["id": 42])
    }

    @Test func deliveryCarriesTheIdempotencyKeyAndTheBody() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("tap-1"))
        let sender = ScriptedSender([201])
        let report = try await outbox.drain(sender: sender)
        #expect(report.delivered == 1 && report.remaining == 0)
        let request = try #require(sender.received.withLock { $0.first })
        #expect(request.headers["Idempotency-Key"] == "tap-1" && request.headers["Content-Type"] == "application/json")
        #expect(request.body.map { try? JSONParser.parse(Array($0)) } == ["id": 42])
        #expect(try await outbox.status().delivered == 1)
    }

    @Test func failuresAreRetriedWithExponentialBackoffAndTheSameKey() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(baseBackoff: .seconds(2)))
        try await outbox.enqueue(Fixture.request("k"))
        let sender = ScriptedSender([503, nil, 429, 200])
        #expect(try await outbox.drain(sender: sender).retried == 1)
        // Not due yet: nothing is sent.
        #expect(try await outbox.drain(sender: sender).attempted == 0)
        fixture.advance(2)  // 2 s after the first failure (jitter pinned to the full delay)
        #expect(try await outbox.drain(sender: sender).retried == 1)
        fixture.advance(3.9)
        #expect(try await outbox.drain(sender: sender).attempted == 0)
        fixture.advance(0.1)  // 4 s after the second
        _ = try await outbox.drain(sender: sender)
        fixture.advance(8)
        #expect(try await outbox.drain(sender: sender).delivered == 1)
        #expect(sender.received.withLock { $0.map { $0.headers["Idempotency-Key"] } } == ["k", "k", "k", "k"])
        #expect(try await outbox.entries(.delivered).first?.attempts == 4)
    }

    @Test func backoffDoublesUpToTheCapWithJitter() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try Outbox(
            path: fixture.path, options: OutboxOptions(baseBackoff: .seconds(1), maximumBackoff: .seconds(10)),
            jitter: { 0 })
        #expect(await outbox.backoff(afterAttempt: 1) == .milliseconds(500))
        #expect(await outbox.backoff(afterAttempt: 3) == .seconds(2))
        #expect(await outbox.backoff(afterAttempt: 30) == .seconds(5))
    }

    @Test func refusalsAndExhaustedRetriesAreDeadLetteredWithTheirLastError() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(maximumAttempts: 2, baseBackoff: .seconds(1)))
        try await outbox.enqueue(Fixture.request("refused"))
        try await outbox.enqueue(Fixture.request("flaky"))
        let sender = ScriptedSender([400, 500])
        _ = try await outbox.drain(sender: sender)
        fixture.advance(5)
        let report = try await outbox.drain(sender: ScriptedSender([502]))
        #expect(report.deadLettered == 1)
        let dead = try await outbox.entries(.dead)
        #expect(dead.map(\.idempotencyKey) == ["refused", "flaky"])
        #expect(dead[0].lastError == "HTTP 400: the server refused the request")
        #expect(dead[1].lastError == "gave up after 2 attempts; last error: HTTP 502")
        #expect(try await outbox.status().dead == 2)
        #expect(try await outbox.purgeDeadLetters() == 2)
    }

    @Test func entriesPastTheirTimeToLiveAreDeadLettered() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(timeToLive: .seconds(60)))
        try await outbox.enqueue(Fixture.request("old"))
        _ = try await outbox.drain(sender: ScriptedSender([nil]))
        fixture.advance(61)
        let report = try await outbox.drain(sender: ScriptedSender([]))
        #expect(report.deadLettered == 1 && report.attempted == 0)
        let entry = try #require(try await outbox.entries(.dead).first)
        #expect(entry.lastError?.hasPrefix("expired: not delivered within its time to live; last error:") == true)
    }

    @Test func aFullOutboxFollowsItsPolicy() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let strict = try fixture.outbox(OutboxOptions(capacity: 2))
        try await strict.enqueue(Fixture.request("a"))
        try await strict.enqueue(Fixture.request("b"))
        await #expect(throws: OutboxError.full(capacity: 2)) { try await strict.enqueue(Fixture.request("c")) }
        let evicting = try fixture.outbox(OutboxOptions(capacity: 2, whenFull: .deadLetterOldest))
        #expect(try await evicting.enqueue(Fixture.request("c")) == .addedEvicting(3, evictedKey: "a"))
        #expect(try await evicting.entries(.dead).first?.lastError == "evicted: the outbox was full")
        #expect(try await evicting.status().pending == 2)
    }

    @Test func onlyOneWorkerDeliversAtATime() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let first = try fixture.outbox()
        let second = try fixture.outbox()
        try await first.enqueue(Fixture.request("k"))
        let lock = try #require(try WorkerLock(databasePath: fixture.path))
        await #expect(throws: OutboxError.workerBusy(fixture.path)) {
            try await second.drain(sender: ScriptedSender([]))
        }
        withExtendedLifetime(lock) {}
    }

    @Test func entriesLeftInFlightByADeadWorkerAreSentAgainWithTheirKey() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("orphan"))
        // A worker claimed it and died before the answer came back.
        try await outbox.query("UPDATE outbox SET state = 'in_flight', attempts = 1 WHERE idempotency_key = 'orphan'")
        let sender = ScriptedSender([200])
        let report = try await outbox.drain(sender: sender)
        #expect(report.recovered == 1 && report.delivered == 1)
        #expect(sender.received.withLock { $0.first?.headers["Idempotency-Key"] } == "orphan")
    }

    @Test func theLongRunningWorkerDeliversWhatArrivesUntilCancelled() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try Outbox(path: fixture.path)
        let sender = ScriptedSender([])
        let worker = Task { try await outbox.run(sender: sender, pollInterval: .milliseconds(10)) }
        try await outbox.enqueue(Fixture.request("live-1"))
        try await outbox.enqueue(Fixture.request("live-2"))
        // The worker marks an entry delivered after its send returns, and the outbox offers no signal of it: polled.
        let delivered = try await Poll.until(every: .milliseconds(5)) { try await outbox.status().delivered == 2 }
        #expect(delivered)
        // While it runs, no second worker may start.
        await #expect(throws: OutboxError.workerBusy(fixture.path)) { try await outbox.drain(sender: sender) }
        worker.cancel()
        _ = await worker.result
        #expect(sender.received.withLock { $0.map { $0.headers["Idempotency-Key"] } } == ["live-1", "live-2"])
        // Cancelled, it let go of the lock.
        #expect(try await outbox.drain(sender: sender).attempted == 0)
    }

    @Test func anEndpointOverrideKeepsThePathAndQuery() {
        #expect(
            Outbox.rebase("https://api.example.com/m/42/like?x=1", onto: "http://127.0.0.1:8080")
                == "http://127.0.0.1:8080/m/42/like?x=1")
        #expect(
            Outbox.rebase("https://api.example.com/like", onto: "http://127.0.0.1:8080/base/")
                == "http://127.0.0.1:8080/base/like")
    }

    @Test func theTapIsCommittedBeforeTheCompletionHandlerRuns() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        let center = SimulatedNotificationCenter()
        _ = try await center.requestAuthorization(options: [.alert])
        await center.setNotificationCategories([
            Pushbutton.Category("message", actions: [Action("like", title: "Like")])
        ])
        let router = ResponseRouter(center: center, backend: outbox)
        let committedAtCompletion = Locked<Int?>(nil)
        var payload = Payload.interactive(category: "message", body: "x")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.test/like"]), forButton: "like")
        let notification = await center.deliver(payload).notification
        let path = fixture.path
        await router.route(NotificationResponse(notification: notification, actionIdentifier: "like")) {
            // Read through a separate connection, as a restarted process would.
            committedAtCompletion.withLock { $0 = (try? Outbox(path: path).entriesSynchronouslyForTests().count) }
        }
        #expect(committedAtCompletion.withLock { $0 } == 1)
    }
}

extension Outbox {
    /// Reads pending entries without awaiting (used inside a synchronous completion handler).
    nonisolated func entriesSynchronouslyForTests() throws -> [[String]] {
        let database = try SQLiteDatabase(path: path)
        return try database.query("SELECT idempotency_key FROM outbox WHERE state = 'pending'").map {
            $0.compactMap(\.text)
        }
    }
}
