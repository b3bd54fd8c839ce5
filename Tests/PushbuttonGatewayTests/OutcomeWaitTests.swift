import Foundation
import Pushbutton
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

/// Issue 34's synchronous answer (`"wait_seconds"`): the request is answered once every recipient's outcome is
/// recorded (woken by the recording, not by polling), or at its deadline (on a manual clock) with the states
/// then; the notification is queued either way, and a repeated `Idempotency-Key` waits for the same one.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct OutcomeWaitTests {
    typealias Setup = WakeOnCommitTests.Setup

    @Test func answersWithTheDeliveredOutcome() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let gateway = try await setup.gateway(store: "sqlite:gateway.db", workers: 1, clock: ManualClock())
        let token = GatewayFixture.token(1)
        let (status, json) = try await Self.post(
            #"{"to": {"tokens": ["\#(token)"]}, "body": "Hi", "wait_seconds": 5}"#, to: gateway)
        #expect(status == 200)
        #expect(json?["complete"] == true)
        let delivery = json?["deliveries"]?.arrayValue?.first?.objectValue
        #expect(delivery?["state"] == "delivered")
        #expect(delivery?["status"] == 200)
        #expect(gateway.workers.recorder.waiters?.counts.signals ?? 0 >= 1, "woken by the recording")
        await gateway.stop()
        await setup.mock.stop()
    }

    @Test func answersWithRejections() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let gone = GatewayFixture.token(2)
        let bad = GatewayFixture.token(3)
        setup.mock.registry.unregister(token: gone, at: Date(timeIntervalSince1970: 1_900_000_000))
        setup.mock.registry.markBad(token: bad)
        let gateway = try await setup.gateway(store: "sqlite:gateway.db", workers: 2, clock: ManualClock())
        let (status, json) = try await Self.post(
            #"{"to": {"tokens": ["\#(gone)", "\#(bad)"]}, "body": "Hi", "wait_seconds": 5}"#, to: gateway)
        #expect(status == 200)
        #expect(json?["complete"] == true)
        let deliveries: [[String: JSONValue]] = json?["deliveries"]?.arrayValue?.compactMap { $0.objectValue } ?? []
        var byToken: [String: [String: JSONValue]] = [:]
        for delivery in deliveries { byToken[delivery["token"]?.stringValue ?? ""] = delivery }
        #expect(byToken[gone]?["state"] == "rejected")
        #expect(byToken[gone]?["status"] == 410)
        #expect(byToken[gone]?["unregistered_at"] == .integer(1_900_000_000_000))
        #expect(byToken[bad]?["state"] == "rejected")
        #expect(byToken[bad]?["status"] == 400)
        #expect(byToken[bad]?["reason"] == "BadDeviceToken")
        await gateway.stop()
        await setup.mock.stop()
    }

    @Test func atTheDeadlineAnswersTheStatesThenAndKeepsTheNotification() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let clock = ManualClock()
        // No worker: nothing is sent, so only the deadline can end the wait.
        let gateway = try await setup.gateway(store: "sqlite:gateway.db", workers: 0, clock: clock)
        let body = #"{"to": {"tokens": ["\#(GatewayFixture.token(4))"]}, "body": "Hi", "wait_seconds": 3}"#
        async let answer = Self.post(body, to: gateway, key: "retry-1")
        await clock.waitForSleepers(1)  // the request waits, its deadline set
        #expect(gateway.workers.recorder.waiters?.counts.waiting == 1)
        clock.advance(by: .seconds(3))
        let (status, json) = try await answer
        #expect(status == 202)
        #expect(json?["complete"] == false)
        #expect(json?["deliveries"]?.arrayValue?.first?.objectValue?["state"] == "queued")
        let id = try #require(json?["id"]?.stringValue)
        // The client retries the same request: the same notification, still queued, waited for again.
        async let again = Self.post(body, to: gateway, key: "retry-1")
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(3))
        let (retried, replay) = try await again
        #expect(retried == 202)
        #expect(replay?["id"]?.stringValue == id)
        #expect(replay?["replayed"] == true)
        await gateway.stop()
        await setup.mock.stop()
    }

    /// On PostgreSQL the process that records the outcomes (B) tells the one where the request waits (A): A's
    /// deadline clock never moves, so only B's `NOTIFY` can end the wait with the outcome.
    @Test func aWaitInOneProcessEndsWithTheOutcomeAnotherRecorded() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let setup = try await Setup()
        defer { setup.remove() }
        let a = try await setup.gateway(store: url, workers: 0, clock: ManualClock())
        // A's listener runs from its first wait; started here first, so that B's NOTIFY is surely heard (no
        // spinning on Swift's pool until the request gets there).
        let storeA = try #require(a.store as? SQLGatewayStore)
        let early = storeA.observeRecordedOutcomes { _ in }
        let listener = try #require(storeA.outcomeNotices.listener)
        await listener.waitUntil { $0.connections >= 1 }
        let token = GatewayFixture.token(6)
        async let answer = Self.post(#"{"to": {"tokens": ["\#(token)"]}, "body": "Hi", "wait_seconds": 5}"#, to: a)
        let b = try await setup.gateway(store: url, workers: 1, clock: ManualClock())
        let (status, json) = try await answer
        #expect(status == 200)
        #expect(json?["complete"] == true)
        #expect(json?["deliveries"]?.arrayValue?.first?.objectValue?["state"] == "delivered")
        #expect(listener.status.notices >= 1, "B's NOTIFY woke A's request")
        early.cancel()
        await a.stop()
        await b.stop()
        #expect(storeA.outcomeNotices.listener == nil, "stopping A closed its LISTEN connection")
        await setup.mock.stop()
    }

    @Test func waitSecondsOutOfRangeIsA422NamingTheField() async throws {
        let setup = try await Setup()
        defer { setup.remove() }
        let gateway = try await setup.gateway(store: "sqlite:gateway.db", workers: 0, clock: ManualClock())
        for value in ["0", "11", "-1", "\"5\""] {
            let (status, json) = try await Self.post(
                #"{"to": {"tokens": ["\#(GatewayFixture.token(5))"]}, "body": "Hi", "wait_seconds": \#(value)}"#,
                to: gateway)
            #expect(status == 422, "\(value)")
            let diagnostic = json?["error"]?.objectValue?["diagnostics"]?.arrayValue?.first?.objectValue
            #expect(diagnostic?["path"] == "wait_seconds", "\(value)")
        }
        await gateway.stop()
        await setup.mock.stop()
    }

    @Test func pastTheWaitersBoundA503WithRetryAfterQueuesNothing() {
        let waiters = OutcomeWaiters(maximumSeconds: 10, maximumWaiters: 1, clock: AnyDurationClock(ManualClock()))
        #expect(waiters.admit())
        #expect(!waiters.admit())
        let response = OutcomeWait.busy(maximumWaiters: 1).response
        #expect(response.status == 503)
        #expect(response.headers.contains { $0.0 == "retry-after" })
        waiters.leave()
        #expect(waiters.admit())
    }

    /// POSTs `body` to the chat app's notifications; the status and the JSON object answered.
    static func post(_ body: String, to gateway: Gateway, key: String? = nil) async throws
        -> (Int, [String: JSONValue]?)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)/v1/apps/chat/notifications")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        request.httpBody = Data(body.utf8)
        // The answer waits for the outcome: longer than URLSession's 60 s default on a loaded machine (a one-process
        // run at load 19 timed out); the suite's time limit still ends a request that never returns.
        request.timeoutInterval = 300
        let (data, response) = try await TestHTTP.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try? JSONParser.parse(Array(data)).objectValue)
    }
}
