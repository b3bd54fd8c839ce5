import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// Nested in WakeOnCommitTests, whose `.serialized` then covers both: run beside each other, a test of each (gateways
// on PostgreSQL with manual clocks) hung twice (a full make test and a run of the two suites), never alone.
extension WakeOnCommitTests {
    /// Issue 35: a scheduled notification is sent when due by an idle worker whose wait ends at the due time (the
    /// fallback poll is a minute, the send 30 s ahead: only the due time can wake it), and on PostgreSQL a campaign
    /// whose time passed while every worker was down is sent late, once, by whichever process comes up. The
    /// gateways' clocks are manual: their `now` is a fixed start plus the clock's offset.
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct ScheduledSendTests {
        typealias Setup = WakeOnCommitTests.Setup

        /// A gateway whose `now` and workers' waits both run on `clock`, from `start`.
        static func gateway(
            _ setup: Setup, store: String, workers: Int, clock: ManualClock, start: Date
        ) async throws -> Gateway {
            let text = GatewayFixture.configurationText(
                mockPort: setup.mock.port, caFile: nil, webhookPort: nil, store: store, workers: workers
            ).replacingOccurrences(
                of: #""port": \#(setup.mock.port)}"#, with: #""port": \#(setup.mock.port), "h2c": true}"#
            )
            .replacingOccurrences(of: #""pollMilliseconds": 20"#, with: #""pollMilliseconds": 60000"#)
            let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: setup.directory)
            let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
            return try await Gateway.start(
                configuration, store: nil, now: { start + clock.now.offset.seconds }, pollClock: AnyDurationClock(clock)
            )
        }

        static func post(_ path: String, body: String, to gateway: Gateway) async throws -> (Int, JSONValue?) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)\(path)")!)
            request.httpMethod = "POST"
            request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
            request.httpBody = Data(body.utf8)
            let (data, response) = try await TestHTTP.session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, try? JSONParser.parse(Array(data)))
        }

        @Test func aScheduledNotificationIsSentWhenDueNotAtThePoll() async throws {
            let setup = try await Setup()
            defer { setup.remove() }
            let clock = ManualClock()
            let start = Date()
            let gateway = try await Self.gateway(
                setup, store: "sqlite:gateway.db", workers: 1, clock: clock, start: start)
            await clock.waitForSleepers(1)
            let token = GatewayFixture.token(7)
            let sendAt = RFC3339.text(start + 20)
            let (status, body) = try await Self.post(
                "/v1/apps/chat/notifications",
                body:
                    #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "body": "Hi", "send_at": "\#(sendAt)"}"#,
                to: gateway)
            #expect(status == 202)
            #expect(body?.objectValue?["counts"]?.objectValue?["scheduled"] == 1)
            // The worker woke for the commit, found nothing due, and waits again: until the due time. It may have read
            // its `now` just before the clock moved (its wait then ends 20 s after the move: a full run of make test saw
            // it hang there), so time moves on by 20 s twice at most: 40 s in all, short of the 60 s poll, so only the
            // due time can have woken it.
            let sent = Locked(false)
            let arrival = Task {
                let arrived = await setup.arrivals.next()
                sent.withLock { $0 = true }
                return arrived
            }
            for _ in 0..<2 where !sent.withLock({ $0 }) {
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(20))
            }
            #expect(await arrival.value == token)
            await gateway.stop()
            await setup.mock.stop()
        }

        @Test func aCampaignDueWhileEveryWorkerWasDownIsSentLateOnceOnPostgreSQL() async throws {
            let cluster = try await Blocking.run { try PostgresTestCluster() }
            defer { cluster.stop() }
            let url = try await Blocking.run { try cluster.freshDatabase() }
            let setup = try await Setup()
            defer { setup.remove() }
            let start = Date()
            // A takes the campaign and has no worker.
            let a = try await Self.gateway(setup, store: url, workers: 0, clock: ManualClock(), start: start)
            let tokens = (20..<26).map { GatewayFixture.token($0) }
            let header = #"{"category": "message", "body": "Hi", "send_at": "\#(RFC3339.text(start + 60))"}"#
            let (status, body) = try await Self.post(
                "/v1/apps/chat/campaigns", body: header + "\n" + tokens.joined(separator: "\n"), to: a)
            #expect(status == 202)
            let id = try #require(body?.objectValue?["id"]?.stringValue)
            // B and C come up an hour after the send time, both with workers: the recipients go out, each once.
            let late = ManualClock()
            late.advance(by: .seconds(3660))
            let b = try await Self.gateway(setup, store: url, workers: 2, clock: late, start: start)
            let c = try await Self.gateway(setup, store: url, workers: 2, clock: late, start: start)
            var arrived: [String] = []
            for _ in tokens { arrived.append(await setup.arrivals.next() ?? "none: the wait was cancelled") }
            #expect(Set(arrived) == Set(tokens))
            let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 1) }
            await yieldUntil {
                (try? store.notification(id: id, limit: 0, after: 0))??.counts[.delivered] == tokens.count
            }
            let record = try #require(try store.notification(id: id, limit: 100, after: 0))
            #expect(record.deliveries.allSatisfy { $0.leases == 1 && $0.attempts == 1 }, "each sent once")
            await a.stop()
            await b.stop()
            await c.stop()
            await setup.mock.stop()
        }
    }
}
