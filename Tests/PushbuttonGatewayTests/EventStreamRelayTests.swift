import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// The stream's relay behind a backlog (issue 35), on SQLite and PostgreSQL: leases of up to 1,000 events posted
/// `batch` a request, up to four leases side by side; each event is acknowledged once while nothing fails, a
/// failed post and the rest of its lease wait out their backoff and are posted again, and a second process on
/// the same database posts what a dead one held once its lease ran out.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EventStreamRelayTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    enum Backend: String, CaseIterable, CustomStringConvertible {
        case sqlite, postgres
        var description: String { rawValue }
    }

    /// A database holding `count` `notification.sent` events, and a way to open another store on it.
    final class Database: Sendable {
        let cluster: PostgresTestCluster?
        let location: String

        init(_ backend: Backend) throws {
            switch backend {
            case .sqlite:
                cluster = nil
                let directory = NSTemporaryDirectory() + "pushbutton-relay-" + UUID().uuidString
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                location = directory + "/gateway.db"
            case .postgres:
                let cluster = try PostgresTestCluster()
                self.cluster = cluster
                location = try cluster.freshDatabase()
            }
        }

        /// A store on the database, as another process opens it.
        func open() throws -> SQLGatewayStore {
            guard cluster != nil else { return try SQLGatewayStore.sqlite(path: location, now: t0) }
            return try SQLGatewayStore.postgres(url: location, connections: 4)
        }

        func stop() {
            cluster?.stop()
            if cluster == nil {
                try? FileManager.default.removeItem(atPath: (location as NSString).deletingLastPathComponent)
            }
        }
    }

    /// The receiver, standing in for the signed HTTP sender: records the event ids of each request it
    /// acknowledges, fails the first `failing` requests with 503, holds every request until `hold` are in
    /// flight at once (then the gate stays open), and with `hang` answers none until ``release()``.
    final class Receiver: OutboxSender {
        struct State {
            var inFlight = 0
            var mostInFlight = 0
            var requests = 0
            var acknowledged: [String] = []
            var mostEvents = 0
            var open = false
            var released = false
        }

        let state = Locked(State())
        let changed = ChangeSignal()
        let hold: Int
        let failing: Int
        let hang: Bool

        init(hold: Int = 0, failing: Int = 0, hang: Bool = false) {
            (self.hold, self.failing, self.hang) = (hold, failing, hang)
        }

        var acknowledged: [String] { state.withLock { $0.acknowledged } }
        var inFlight: Int { state.withLock { $0.inFlight } }
        var mostInFlight: Int { state.withLock { $0.mostInFlight } }
        /// The most events one acknowledged request carried.
        var mostEvents: Int { state.withLock { $0.mostEvents } }

        func release() {
            state.withLock { $0.released = true }
            changed.notify()
        }

        func wait(_ condition: () -> Bool) async { await changed.wait(until: condition) }

        func send(_ request: OutgoingRequest) async throws -> Int {
            let number = state.withLock { state -> Int in
                state.inFlight += 1
                state.mostInFlight = max(state.mostInFlight, state.inFlight)
                if state.inFlight >= hold { state.open = true }
                state.requests += 1
                return state.requests
            }
            changed.notify()
            defer {
                state.withLock { $0.inFlight -= 1 }
                changed.notify()
            }
            await changed.wait { state.withLock { $0.open } }
            if hang { await changed.wait { state.withLock { $0.released } } }
            if hang || number <= failing { return 503 }
            let ids = (try JSONParser.parse(Array(request.body ?? Data()))).objectValue?["events"]?.arrayValue?
                .compactMap {
                    $0.objectValue?["id"]?.stringValue
                }
            state.withLock { state in
                state.acknowledged += ids ?? []
                state.mostEvents = max(state.mostEvents, ids?.count ?? 0)
            }
            return 200
        }
    }

    /// Raises a `notification.sent` for each of `count` recipients; returns the events' ids.
    static func seed(_ store: SQLGatewayStore, count: Int) throws -> Set<String> {
        store.streamEvents([.sent])
        let deliveries = (0..<count).map {
            NewDelivery(token: String(format: "%064x", $0 + 1), apnsID: "a-\($0)", payload: Array("{}".utf8))
        }
        _ = try store.enqueue(
            NotificationSpec(id: "n1", app: "chat", kind: .notification, topic: "com.example.chat", createdAt: t0),
            deliveries: deliveries, idempotency: nil, now: t0)
        while case let leased = try store.lease(limit: 1000, duration: 60, now: t0), !leased.isEmpty {
            _ = try store.record(
                leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false, now: t0)
        }
        return Set((0..<count).map { "notification.sent:a-\($0)" })
    }

    /// Starts the relay of one process (100 events a request, the time `now` says) on store threads of its own.
    static func start(
        _ store: SQLGatewayStore, _ receiver: Receiver, clock: ManualClock = ManualClock(),
        now: @escaping @Sendable () -> Date
    ) -> (Task<Void, Never>, HandlerThreads) {
        let threads = HandlerThreads(count: 2, name: "pb-test")
        let relay = EventStreamRelay(
            store: store,
            webhook: WebhookNotifier(
                WebhookConfiguration(url: "http://127.0.0.1:9/events", secret: "s"), sender: receiver),
            stream: EventStreamConfiguration(types: [.sent], batch: 100), threads: threads, now: now,
            clock: AnyDurationClock(clock), lease: 60)
        return (Task { await relay.run() }, threads)
    }

    /// Stops a relay (cancelled, it gives back what it did not post) and its store threads.
    static func stop(_ running: Task<Void, Never>, _ threads: HandlerThreads) async {
        running.cancel()
        await running.value
        await threads.stop()
    }

    /// Whether `receiver` acknowledged each of `expected` exactly once.
    static func eachOnce(_ receiver: Receiver, _ expected: Set<String>) -> Bool {
        receiver.acknowledged.count == expected.count && Set(receiver.acknowledged) == expected
    }

    /// Events nobody holds or will post again (a claim far in the future finds none).
    static func left(_ store: SQLGatewayStore) throws -> Int {
        try store.leaseStreamEvents(limit: 10_000, duration: 1, now: t0 + 86_400).events.count
    }

    @Test(arguments: Backend.allCases)
    func aBacklogIsPostedFourLeasesAtATimeEachEventOnce(_ backend: Backend) async throws {
        let database = try await Blocking.run { try Database(backend) }
        defer { database.stop() }
        let store = try await Blocking.run { try database.open() }
        let expected = try Self.seed(store, count: 4_500)
        // Every request waits until four are in flight: five leases (1,000 each, the last 500), four at once.
        let receiver = Receiver(hold: 4)
        let (running, threads) = Self.start(store, receiver, now: { Self.t0 })
        await receiver.wait { receiver.acknowledged.count >= expected.count }
        await Self.stop(running, threads)
        #expect(receiver.mostInFlight == 4)
        #expect(receiver.mostEvents == 100, "`batch` events a request at most")
        #expect(Self.eachOnce(receiver, expected))
        #expect(try Self.left(store) == 0)
    }

    @Test(arguments: Backend.allCases)
    func aFailedPostAndTheRestOfItsLeaseArePostedAfterTheirBackoff(_ backend: Backend) async throws {
        let database = try await Blocking.run { try Database(backend) }
        defer { database.stop() }
        let store = try await Blocking.run { try database.open() }
        let expected = try Self.seed(store, count: 2_500)
        let receiver = Receiver(hold: 3, failing: 1)
        let clock = ManualClock()
        let now = Locked(Self.t0)
        let (running, threads) = Self.start(store, receiver, clock: clock, now: { now.withLock { $0 } })
        // The first request failed: its lease's events back off (a second at most), the other leases are
        // posted; each poll after that finds what is due (the leases in flight hold theirs for a minute).
        while receiver.acknowledged.count < expected.count {
            await clock.waitForSleepers()
            now.withLock { $0 += 1 }
            clock.advance(by: .milliseconds(200))
            await Task.yield()
        }
        await Self.stop(running, threads)
        #expect(Self.eachOnce(receiver, expected))
        #expect(try Self.left(store) == 0)
    }

    @Test(arguments: Backend.allCases)
    func anotherProcessPostsWhatADeadOneHeld(_ backend: Backend) async throws {
        let database = try await Blocking.run { try Database(backend) }
        defer { database.stop() }
        let (one, two) = try await Blocking.run { (try database.open(), try database.open()) }
        let expected = try Self.seed(one, count: 2_500)
        // The first process leases everything (three leases in flight) and never hears back: it is dead.
        let dead = Receiver(hold: 3, hang: true)
        let (dying, deadThreads) = Self.start(one, dead, now: { Self.t0 })
        await dead.wait { dead.inFlight == 3 }
        // Another process, once the leases ran out unrenewed, posts every event.
        let receiver = Receiver()
        let (running, threads) = Self.start(two, receiver, now: { Self.t0 + 61 })
        await receiver.wait { receiver.acknowledged.count >= expected.count }
        await Self.stop(running, threads)
        // The dead process's late answers change nothing: the events are another's now, and gone.
        dead.release()
        await Self.stop(dying, deadThreads)
        #expect(dead.acknowledged.isEmpty)
        #expect(Self.eachOnce(receiver, expected))
        #expect(try Self.left(two) == 0)
    }
}
