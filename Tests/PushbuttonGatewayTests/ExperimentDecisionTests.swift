import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonStore

// Nested in WakeOnCommitTests, whose `.serialized` covers gateways on PostgreSQL with manual clocks (see
// ScheduledSendTests).
extension WakeOnCommitTests {
    /// Issue 36 on PostgreSQL with two processes' worth of gateways on one database: when `decide_after` comes
    /// for both at once, the decision is made once and every waiting recipient is sent once; and a planned
    /// sample size lets the decision come before `decide_after`. The gateways' `now` and their workers' waits are
    /// manual (`now` is a fixed start plus the clock's offset).
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct ExperimentDecisionTests {
        typealias Setup = WakeOnCommitTests.Setup

        static func gateway(_ setup: Setup, store: String, clock: ManualClock, start: Date) async throws -> Gateway {
            try await setup.gateway(
                store: store, workers: 2, clock: clock, now: { start + clock.now.offset.seconds })
        }

        static let header =
            #"{"category": "message", "title": "Lunch", "variants": [{"name": "A", "share": 50, "body": "A"}, "#
            + #"{"name": "B", "share": 50, "body": "B"}], "test_share": 40, "metric": "any_button", "#
            + #""decide_after": "PT1H""#

        @Test func twoGatewaysDecideOnceAndSendEachWaitingRecipientOnceOnPostgreSQL() async throws {
            let cluster = try await Blocking.run { try PostgresTestCluster() }
            defer { cluster.stop() }
            let url = try await Blocking.run { try cluster.freshDatabase() }
            let setup = try await Setup()
            defer { setup.remove() }
            let start = Date()
            let (one, two) = (ManualClock(), ManualClock())
            let a = try await Self.gateway(setup, store: url, clock: one, start: start)
            let b = try await Self.gateway(setup, store: url, clock: two, start: start)
            let tokens = (0..<120).map { String(format: "%064x", 0xD0_0000 + $0) }
            let (status, body) = try await ScheduledSendTests.post(
                "/v1/apps/chat/campaigns", body: Self.header + "}\n" + tokens.joined(separator: "\n"), to: a)
            #expect(status == 202, "\(String(describing: body))")
            let id = try #require(body?.objectValue?["id"]?.stringValue)
            let assignment = ExperimentAssignment(experiment: id, shares: [50, 50], testShare: 40)
            let tested = tokens.filter { assignment.inTestGroup($0) }
            var arrived: [String] = []
            for _ in tested { arrived.append(await setup.arrivals.next() ?? "none: the wait was cancelled") }
            #expect(Set(arrived) == Set(tested))
            // The test group's outcomes recorded first: an hour's jump would expire leases still being recorded.
            let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 1) }
            await yieldUntil {
                (try? store.notification(id: id, limit: 0, after: 0))??.counts[.delivered] == tested.count
            }
            // An hour later on both at once: one decides, both may try.
            one.advance(by: .seconds(3601))
            two.advance(by: .seconds(3601))
            for _ in 0..<(tokens.count - tested.count) {
                arrived.append(await setup.arrivals.next() ?? "none: the wait was cancelled")
            }
            #expect(arrived.count == tokens.count)
            #expect(Set(arrived) == Set(tokens), "everyone once")
            await yieldUntil { (try? store.experiment(campaign: id))??.state == .rolledOut }
            let record = try #require(try store.experiment(campaign: id))
            #expect(record.rolledOut == "A", "nobody tapped: the default (the control)")
            let twice = try store.read { connection throws(StoreError) in
                try connection.query(
                    "SELECT token FROM deliveries WHERE notification_id = ? GROUP BY token HAVING COUNT(*) > 1",
                    [.text(id)])
            }
            #expect(twice.isEmpty)
            await a.stop()
            await b.stop()
            await setup.mock.stop()
        }

        @Test func aPlannedSampleDecidesBeforeDecideAfter() async throws {
            let setup = try await Setup()
            defer { setup.remove() }
            let clock = ManualClock()
            let start = Date()
            let gateway = try await Self.gateway(setup, store: "sqlite:gateway.db", clock: clock, start: start)
            let tokens = (0..<60).map { String(format: "%064x", 0xD1_0000 + $0) }
            let (status, body) = try await ScheduledSendTests.post(
                "/v1/apps/chat/campaigns",
                body: Self.header + #", "planned_trials_per_variant": 1}"# + "\n" + tokens.joined(separator: "\n"),
                to: gateway)
            #expect(status == 202, "\(String(describing: body))")
            let id = try #require(body?.objectValue?["id"]?.stringValue)
            // Every recipient arrives: the test group first, then (a minute later by the clock, long before the
            // hour) the rest, once each variant has its one planned delivery.
            let arrived = Locked(Set<String>())
            let collect = Task {
                // Until each has arrived (a lease the clock's jump expired may send one twice: not what this tests).
                while arrived.withLock({ $0.count }) < tokens.count {
                    guard let token = await setup.arrivals.next() else { return }  // cancelled
                    arrived.withLock { _ = $0.insert(token) }
                }
            }
            // The workers look again each time the clock passes their poll (60 s); the outcomes of the test group
            // may be recorded after the first look, so time moves a poll at a time, at most 30 minutes in all.
            for _ in 0..<30 where arrived.withLock({ $0.count }) < tokens.count {
                await clock.waitForSleepers(2)
                clock.advance(by: .seconds(61))
            }
            // An unstructured task: cancelled with the test (its time limit), so a recipient that never comes
            // fails this test instead of hanging the run.
            await withTaskCancellationHandler {
                await collect.value
            } onCancel: {
                collect.cancel()
            }
            #expect(arrived.withLock { $0 } == Set(tokens))
            let store = try #require(gateway.store as? any ExperimentStore)
            let record = try #require(try store.experiment(campaign: id))
            #expect(record.decidedAt.map { $0 < start + 3600 } == true)
            await gateway.stop()
            await setup.mock.stop()
        }
    }
}
