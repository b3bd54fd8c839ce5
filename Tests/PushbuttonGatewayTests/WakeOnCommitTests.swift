import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 34: a committed notification wakes an idle worker at once (in process, and on PostgreSQL in another
/// process through LISTEN/NOTIFY); the poll is only the fallback for a lost signal. The workers' fallback poll
/// runs on a manual clock that these tests advance only where the fallback is the point: a notification that
/// reaches the mock while the clock stands still was sent because a signal woke its worker.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct WakeOnCommitTests {
    @Test func aNotificationPostedToAnIdleGatewayWakesAWorker() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let clock = ManualClock()
        let gateway = try await setup.gateway(store: "sqlite:gateway.db", workers: 2, clock: clock)
        await clock.waitForSleepers(2)  // both workers found nothing and wait
        let token = GatewayFixture.token(1)
        #expect(try await setup.post(token, to: gateway) == 202)
        #expect(await setup.arrivals.next() == token)
        // Leased in the intake's transaction and handed to a worker: no commit signal, no lease of its own.
        #expect(gateway.workers.handOff.counts.handedOff == 1)
        #expect(gateway.workers.signal.wakes(.handedOver) == 1)
        #expect(gateway.workers.signal.wakes(.signalled) == 0, "no worker was woken to lease")
        #expect(gateway.workers.signal.wakes(.timedOut) == 0, "the fallback poll's clock never moved")
        await gateway.stop()
        await setup.mock.stop()
    }

    @Test func postedToOneProcessSentByAnIdleOtherOnPostgreSQL() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let setup = try await Setup()
        defer { setup.remove() }
        // A takes the request and has no worker; B has one, idle, and hears A's NOTIFY.
        let a = try await setup.gateway(store: url, workers: 0, clock: ManualClock())
        let clockB = ManualClock()
        let b = try await setup.gateway(store: url, workers: 1, clock: clockB)
        let listener = try #require((b.store as? SQLGatewayStore)?.committedWork.listener)
        await listener.waitUntil { $0.connections >= 1 }
        await clockB.waitForSleepers(1)
        let token = GatewayFixture.token(2)
        #expect(try await setup.post(token, to: a) == 202)
        #expect(await setup.arrivals.next() == token)
        await listener.waitUntil { $0.notices >= 1 }  // it was A's NOTIFY that B heard
        #expect(b.workers.signal.wakes(.timedOut) == 0, "B's fallback poll's clock never moved")
        await a.stop()
        await b.stop()
        await setup.mock.stop()
    }

    @Test func aLostNotifyIsRecoveredByTheFallbackPoll() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let setup = try await Setup()
        defer { setup.remove() }
        let a = try await setup.gateway(store: url, workers: 0, clock: ManualClock())
        // B's listener would reconnect only after an hour: the fallback poll has to find the notification.
        let storeB = try await Blocking.run {
            try SQLGatewayStore.postgres(url: url, connections: 4, listenerRetry: .seconds(3600))
        }
        let clockB = ManualClock()
        let b = try await setup.gateway(store: url, workers: 1, clock: clockB, given: storeB)
        let listener = try #require(storeB.committedWork.listener)
        await listener.waitUntil { $0.connections >= 1 }
        try await Blocking.run {
            try Self.psql(
                cluster, url: url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN \(CommittedWork.channel)'"
            )
        }
        await listener.waitUntil { $0.drops >= 1 }
        await clockB.waitForSleepers(1)
        let token = GatewayFixture.token(3)
        #expect(try await setup.post(token, to: a) == 202)
        let timedOut = b.workers.signal.wakes(.timedOut)
        clockB.advance(by: .seconds(60))  // the fallback poll
        #expect(await setup.arrivals.next() == token)
        #expect(b.workers.signal.wakes(.timedOut) > timedOut)
        #expect(listener.status.notices == 0, "A's NOTIFY was lost with B's connection")
        await a.stop()
        await b.stop()
        await setup.mock.stop()
    }

    @Test func anIdleWorkerWakesWhenALeaseRunsOutOnSQLite() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let store = try SQLGatewayStore.sqlite(path: setup.directory + "/gateway.db")
        try await leaseRunningOutWakesAWorker(setup, location: "sqlite:gateway.db", store: store, token: 4)
    }

    @Test func anIdleWorkerWakesWhenALeaseRunsOutOnPostgreSQL() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let setup = try await Setup()
        defer { setup.remove() }
        let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 4) }
        // The listener raises the signal when it connects (to catch what it missed), and that may end the idle
        // wait first (CI saw it once): the recipient still arrives with the clock short of the poll.
        try await leaseRunningOutWakesAWorker(setup, location: url, store: store, token: 5, listening: true)
    }

    /// A worker that died mid-send left its lease (30 s): an idle worker waits until that lease runs out, not
    /// for its fallback poll (60 s), whose clock is advanced only 31 s here.
    private func leaseRunningOutWakesAWorker(
        _ setup: Setup, location: String, store: SQLGatewayStore, token n: Int, listening: Bool = false
    ) async throws {
        let offset = Locked(0.0)
        let intake = try await setup.gateway(store: location, workers: 0, clock: ManualClock(), given: store)
        let token = GatewayFixture.token(n)
        #expect(try await setup.post(token, to: intake) == 202)
        let base = Date()  // after the intake: the recipient is due
        let held = try await Blocking.run { try store.lease(limit: 10, duration: 30, now: base) }
        #expect(held.count == 1)
        let clock = ManualClock()
        let worker = try await setup.gateway(
            store: location, workers: 1, clock: clock, given: store, now: { base + offset.withLock { $0 } })
        await clock.waitForSleepers(1)  // found nothing to lease, waits
        // A second past the lease's end, still half the poll: the lease's end comes back from the store as a
        // Double round trip a fraction of a microsecond past base + 30 now and then, and the idle wait rounds up
        // to the millisecond (such a run waited 30.001 s on a clock moved 30 s, and the whole test run hung).
        offset.withLock { $0 = 31 }
        clock.advance(by: .seconds(31))
        #expect(await setup.arrivals.next() == token)
        let wakes = worker.workers.signal
        if listening {
            #expect(wakes.wakes(.timedOut) + wakes.wakes(.signalled) >= 1, "woken when the lease ran out")
        } else {
            #expect(wakes.wakes(.timedOut) == 1, "woken when the lease ran out")
        }
        await worker.stop()
        await intake.stop()
        await setup.mock.stop()
    }

    @Test func aReleasedLeaseNotifiesTheOtherProcesses() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let setup = try await Setup()
        defer { setup.remove() }
        let storeA = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 4) }
        let a = try await setup.gateway(store: url, workers: 0, clock: ManualClock(), given: storeA)
        #expect(try await setup.post(GatewayFixture.token(6), to: a) == 202)
        let storeB = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 4) }
        let observation = storeB.observeCommittedWork {}
        defer { observation.cancel() }
        let listener = try #require(storeB.committedWork.listener)
        await listener.waitUntil { $0.connections >= 1 }
        let leased = try await Blocking.run { try storeA.lease(limit: 10, duration: 30, now: Date()) }
        #expect(leased.count == 1)
        let before = listener.status.notices
        try await Blocking.run { try storeA.release(leased) }  // A drains: its batch is due again
        await listener.waitUntil { $0.notices > before }
        await a.stop()
        await setup.mock.stop()
    }

    private static func psql(_ cluster: PostgresTestCluster, url: String, _ sql: String) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [url, "-qAtc", sql]
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let exit = process.waitForExit()
        guard exit.status == 0, !exit.signaled else {
            throw GatewayFixture.FixtureError(description: "psql \(sql): \(exit)")
        }
    }

    /// A mock APNs (h2c) whose accepted tokens arrive in ``arrivals``, and the files a gateway needs.
    struct Setup {
        let directory: String
        let mock: MockAPNs
        let arrivals: Arrivals

        init() async throws {
            directory = NSTemporaryDirectory() + "pushbutton-wake-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let key = try P256PrivateKey.generate()
            try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            chmod(directory + "/AuthKey.p8", 0o600)
            try GatewayFixture.manifest.write(
                toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
            mock = try await MockAPNs.start(
                MockAPNsConfiguration(
                    security: .h2c,
                    keys: [
                        try MockProviderKey(
                            keyID: GatewayFixture.keyID, teamID: GatewayFixture.teamID, privateKey: key)
                    ]))
            let arrivals = Arrivals()
            mock.forward { notification in arrivals.add(notification.deviceToken) }
            self.arrivals = arrivals
        }

        /// A gateway whose workers' fallback poll (60 s) runs on `clock`.
        func gateway(
            store: String, workers: Int, clock: ManualClock, given: (any GatewayStore)? = nil,
            now: @escaping @Sendable () -> Date = { Date() }
        ) async throws -> Gateway {
            let text = GatewayFixture.configurationText(
                mockPort: mock.port, caFile: nil, webhookPort: nil, store: store, workers: workers
            ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
                .replacingOccurrences(of: #""pollMilliseconds": 20"#, with: #""pollMilliseconds": 60000"#)
            let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
            let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
            return try await Gateway.start(configuration, store: given, now: now, pollClock: AnyDurationClock(clock))
        }

        /// POSTs one notification to `token` through `gateway`; the status.
        func post(_ token: String, to gateway: Gateway) async throws -> Int {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)/v1/apps/chat/notifications")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(
                #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "title": "Anna", "body": "Lunch?"}"#.utf8)
            let (_, response) = try await TestHTTP.session.data(for: request)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        }

        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    /// The tokens the mock accepted, in order, awaited one at a time.
    final class Arrivals: Sendable {
        private struct State {
            var tokens: [String] = []
            var waiter: CheckedContinuation<String?, Never>?
        }
        private let state = Locked(State())

        func add(_ token: String) {
            let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                guard let waiter = state.waiter else {
                    state.tokens.append(token)
                    return nil
                }
                state.waiter = nil
                return waiter
            }
            waiter?.resume(returning: token)
        }

        /// The next accepted token; nil if the test's time limit cancels the wait (a token that never comes fails
        /// the test, not the whole run).
        func next() async -> String? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                    let token = state.withLock { state -> String?? in
                        guard state.tokens.isEmpty else { return state.tokens.removeFirst() }
                        if Task.isCancelled { return .some(nil) }
                        state.waiter = continuation
                        return nil
                    }
                    if let token { continuation.resume(returning: token) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(returning: nil)
            }
        }
    }
}
