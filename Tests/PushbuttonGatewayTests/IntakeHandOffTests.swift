import Foundation
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

/// Issue 34: a single notification posted while a worker waits idle is leased in its intake's transaction and
/// handed to that worker in memory (``LeaseHandOff``), so it reaches the mock with no lease between the commit
/// and the send; a client's retry with the same `Idempotency-Key` is answered with the first 202 and sends
/// nothing again. The workers' fallback poll runs on a manual clock that never moves here.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct IntakeHandOffTests {
    @Test(arguments: ["sqlite:gateway.db", "postgres"])
    func aRetriedPostIsAnsweredWithTheFirstAndSentOnce(_ location: String) async throws {
        var cluster: PostgresTestCluster?
        var store = location
        if location == "postgres" {
            let started = try await Blocking.run { try PostgresTestCluster() }
            cluster = started
            store = try await Blocking.run { try started.freshDatabase() }
        }
        defer { cluster?.stop() }
        let setup = try await WakeOnCommitTests.Setup()
        defer { setup.remove() }
        let clock = ManualClock()
        let gateway = try await setup.gateway(store: store, workers: 2, clock: clock)
        await clock.waitForSleepers(2)  // both workers found nothing and wait
        let (first, retried, fence) = (GatewayFixture.token(11), GatewayFixture.token(12), GatewayFixture.token(13))
        let answer = try await Self.post(first, to: gateway, key: "order-42-shipped")
        #expect(answer.status == 202)
        #expect(await setup.arrivals.next() == first)
        // The client did not see the answer and retries the same request with the same key.
        await clock.waitForSleepers(2)
        let again = try await Self.post(first, to: gateway, key: "order-42-shipped")
        #expect(again.status == 202)
        #expect(again.id == answer.id, "the first notification's 202")
        let conflicting = try await Self.post(retried, to: gateway, key: "order-42-shipped")
        #expect(conflicting.status == 409, "the same key with another request is a conflict, not a send")
        // A later notification is handed over after the retry: had the retry sent anything, it would arrive first.
        #expect(try await Self.post(fence, to: gateway, key: nil).status == 202)
        #expect(await setup.arrivals.next() == fence)
        #expect(gateway.workers.handOff.counts.handedOff == 2, "the first and the fence, not the retry")
        // (PostgreSQL's listener raises the signal whenever it connects, for what it may have missed.)
        if location != "postgres" {
            #expect(gateway.workers.signal.wakes(.signalled) == 0, "nothing was queued for a lease")
        }
        #expect(gateway.workers.signal.wakes(.timedOut) == 0)
        await gateway.stop()
        await setup.mock.stop()
    }

    /// POSTs one notification to `token` (with `key` as its `Idempotency-Key`); the status and the id answered.
    static func post(_ token: String, to gateway: Gateway, key: String?) async throws -> (status: Int, id: String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)/v1/apps/chat/notifications")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        if let key { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
        request.httpBody = Data(
            #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "title": "Anna", "body": "Shipped"}"#.utf8)
        let (data, response) = try await TestHTTP.session.data(for: request)
        let body = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body?["id"] as? String)
    }
}
