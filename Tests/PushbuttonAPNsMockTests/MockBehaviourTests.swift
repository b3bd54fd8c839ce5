import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

/// The mock over the network: faults, stream limits, start and stop, h2c and forwarding to a device.
@Suite(.timeLimit(.minutes(5))) struct MockBehaviourTests {
    /// Sends `count` notifications to distinct tokens and returns their results.
    static func sendMany(_ client: APNsClient, count: Int, unfinished: UnfinishedSends? = nil) async throws
        -> [APNsResult]
    {
        let notifications = try (1...count).map { try MockFixture.notification(token: MockFixture.token($0)) }
        return await withTaskGroup(of: APNsResult.self) { group in
            for notification in notifications {
                group.addTask {
                    let result = await client.send(notification)
                    unfinished?.finished()
                    return result
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: ["429=1", "500=1", "503=1"])
    func injectedErrorsAreAnsweredAndRetriedWithTheSameID(spec: String) async throws {
        // Every first attempt fails; the retry policy gives up after its attempts with the last cause.
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: spec))
        let client = try fixture.client(policy: RetryPolicy(maximumAttempts: 3, baseBackoff: .milliseconds(1)))
        let notification = try MockFixture.notification()
        let result = await client.send(notification)
        guard case .failed(let id, 3, let cause) = result else {
            Issue.record("expected failure after 3 attempts, got \(result)")
            return
        }
        #expect(id == notification.apnsID && cause.message.hasPrefix(spec.prefix(3)))
        let counters = fixture.mock.counters
        #expect(counters.requests == 3 && counters.faults[String(spec.prefix(3))] == 3 && counters.accepted == 0)
        #expect(counters.retriesAfterFinalError == 0)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func everyFaultAtOnceStillEndsInOneDeliveryPerNotification() async throws {
        let plan = try FaultPlan(
            parsing:
                "429=0.05,500=0.05,503=0.05,refuse=0.05,drop=0.01,delay=0.05,delay-ms=20,silence=0.01,goaway-after=40,seed=3"
        )
        let fixture = try await MockFixture(faults: plan)
        // The request deadlines run on a manual clock, moved only when every unfinished send waits on a silenced
        // stream: a timeout resends an answer that was merely slow (a duplicate APNs would accept too), and on a
        // loaded machine a wall-clock timeout did that.
        let deadlines = ManualClock()
        let client = try fixture.client(
            connections: 2, policy: RetryPolicy(maximumAttempts: 12, baseBackoff: .milliseconds(1)),
            transportClock: AnyDurationClock(deadlines))
        let unfinished = UnfinishedSends(300)
        async let timeouts: Void = MockFixture.expireSilencedRequests(clock: deadlines, mock: fixture.mock) {
            unfinished.value
        }
        let results = try await Self.sendMany(client, count: 300, unfinished: unfinished)
        await timeouts
        #expect(results.count == 300)
        let undelivered = results.filter { !$0.isDelivered }
        #expect(undelivered.isEmpty)
        let recorded = fixture.mock.notifications
        #expect(Set(recorded.map(\.apnsID)).count == 300 && recorded.count == 300)  // exactly once per apns-id
        let counters = fixture.mock.counters
        #expect(counters.duplicateAcceptances == 0 && counters.retriesAfterFinalError == 0)
        for kind in ["429", "500", "503", "refuse", "delay", "goaway"] {
            #expect(counters.faults[kind, default: 0] > 0)
        }
        #expect(counters.connections > 2)  // GOAWAY and dropped connections were replaced
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aGoawayTriggeredByADelayedAnswerNamesEveryStreamAlreadyDecided() async throws {
        // Every answer waits 50 ms and each connection says GOAWAY after its first: the first answer goes out while
        // the other streams' answers are pending. The GOAWAY must name those as processed; naming only the first
        // made the client send them again on a new connection, and the mock accept them twice.
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: "delay=1,delay-ms=50,goaway-after=1"))
        let client = try fixture.client(policy: RetryPolicy(maximumAttempts: 20, baseBackoff: .milliseconds(1)))
        let results = try await Self.sendMany(client, count: 20)
        let undelivered = results.filter { !$0.isDelivered }
        #expect(undelivered.isEmpty)
        let counters = fixture.mock.counters
        #expect(counters.accepted == 20 && counters.duplicateAcceptances == 0)
        #expect(counters.faults["goaway", default: 0] > 0)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aSilentServerIsCutOffByTheRequestTimeout() async throws {
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: "silence=1"))
        // The request deadlines run on a manual clock: each attempt times out when the mock has it, not when a
        // loaded machine's wall clock says so.
        let deadlines = ManualClock()
        let client = try fixture.client(
            timeout: .milliseconds(200), policy: RetryPolicy(maximumAttempts: 2, baseBackoff: .milliseconds(1)),
            transportClock: AnyDurationClock(deadlines))
        let notification = try MockFixture.notification()
        // Each attempt ends only when the manual clock passes 200 ms: with the 30-second default instead, the
        // send would never end and the suite's time limit would fail the test (no wall-clock bound is needed).
        let sending = Task { await client.send(notification) }
        for attempt in 1...2 {
            await yieldUntil { fixture.mock.counters.faults["silence"] ?? 0 >= attempt }
            deadlines.advance(by: .milliseconds(200))
        }
        let result = await sending.value
        guard case .failed(_, 2, let cause) = result else {
            Issue.record("expected a failure after two timeouts, got \(result)")
            return
        }
        #expect(cause.message.contains("no response within 0.2 seconds"))
        #expect(fixture.mock.counters.faults["silence"] == 2)
        #expect(fixture.mock.notifications.isEmpty)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aDroppedConnectionLosesTheStreamAndIsReplaced() async throws {
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: "drop=1"))
        let client = try fixture.client(policy: RetryPolicy(maximumAttempts: 3, baseBackoff: .milliseconds(1)))
        let result = await client.send(try MockFixture.notification())
        guard case .failed(_, 3, let cause) = result else {
            Issue.record("expected a failure after three lost streams, got \(result)")
            return
        }
        #expect(cause.message.hasPrefix("stream lost"))
        let counters = fixture.mock.counters
        #expect(counters.faults["drop"] == 3 && counters.connections == 3 && counters.accepted == 0)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func anIdleConnectionIsKeptAliveWithPings() async throws {
        let fixture = try await MockFixture()
        // Idle time passes on a manual clock: a PING is due each time it moves past the interval.
        let idle = ManualClock()
        let transport = try NGHTTP2Transport(
            TransportConfiguration(
                environment: fixture.mock.environment, pingInterval: .milliseconds(100), pingTimeout: .seconds(2)),
            clock: AnyDurationClock(idle))
        let client = APNsClient(
            transport: transport,
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID))
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        idle.advance(by: .milliseconds(101))
        await yieldUntil { fixture.mock.counters.pings >= 1 }
        // Answered after the PING's ACK on the same connection: the client has seen the ACK, so the next
        // interval starts now.
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        idle.advance(by: .milliseconds(101))
        await yieldUntil { fixture.mock.counters.pings >= 2 }
        #expect(fixture.mock.counters.pings >= 2)
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        #expect(fixture.mock.counters.connections == 1)  // answered PINGs keep the connection
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aDelayedAnswerStillArrives() async throws {
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: "delay=1,delay-ms=150"))
        let client = try fixture.client()
        let started = ContinuousClock.now
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        #expect(fixture.mock.counters.faults["delay"] == 1 && fixture.mock.notifications.count == 1)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func goawayWithAReasonMovesTheRestToANewConnection() async throws {
        let fixture = try await MockFixture(faults: FaultPlan(goawayAfterStreams: 5))
        let client = try fixture.client()
        let results = try await Self.sendMany(client, count: 23)
        #expect(results.allSatisfy { $0.isDelivered })
        #expect(fixture.mock.counters.connections >= 5 && fixture.mock.counters.faults["goaway"]! >= 4)
        #expect(fixture.mock.notifications.count == 23)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func theDeviceRegistryAnswersOverTheNetwork() async throws {
        let fixture = try await MockFixture()
        let alive = MockFixture.token(1)
        let dead = MockFixture.token(2)
        fixture.mock.registry.register(token: alive, topic: MockFixture.topic)
        fixture.mock.registry.unregister(token: dead, at: Date(timeIntervalSince1970: 1_750_000_000))
        let client = try fixture.client()
        #expect(await client.send(try MockFixture.notification(token: alive)).isDelivered)
        guard
            case .rejected(_, 410, .unregistered, let since?) = await client.send(
                try MockFixture.notification(token: dead))
        else {
            Issue.record("Unregistered not reported")
            return
        }
        #expect(since == Date(timeIntervalSince1970: 1_750_000_000))
        guard
            case .rejected(_, 400, .badDeviceToken, nil) = await client.send(
                try MockFixture.notification(token: MockFixture.token(3)))
        else {
            Issue.record("BadDeviceToken not reported")
            return
        }
        #expect(fixture.mock.counters.rejectedByReason == ["Unregistered": 1, "BadDeviceToken": 1])
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aTokenFromAnotherKeyIsRefused() async throws {
        let fixture = try await MockFixture()
        let stranger = TokenProvider(
            key: try P256PrivateKey.generate(), keyID: MockFixture.keyID, teamID: MockFixture.teamID)
        let client = APNsClient(
            transport: try NGHTTP2Transport(.init(environment: fixture.mock.environment)), tokens: stranger,
            retryPolicy: RetryPolicy(baseBackoff: .milliseconds(1)))
        guard case .rejected(_, 403, .invalidProviderToken, _) = await client.send(try MockFixture.notification())
        else {
            Issue.record("a forged token was not refused")
            return
        }
        await client.shutdown()
        await fixture.stop()
    }

    @Test func h2cModeServesCleartextHTTP2() async throws {
        let fixture = try await MockFixture(security: .h2c)
        #expect(fixture.mock.caFile == nil && fixture.mock.environment.cleartext)
        let client = try fixture.client()
        let results = try await Self.sendMany(client, count: 5)
        #expect(results.allSatisfy { $0.isDelivered })
        await client.shutdown()
        await fixture.stop()
    }

    @Test func portZeroPicksAFreePortAndStopReleasesIt() async throws {
        let first = try await MockFixture()
        let second = try await MockFixture()
        #expect(first.mock.port > 0 && second.mock.port > 0 && first.mock.port != second.mock.port)
        await first.stop()
        await second.stop()
        // Stop releases the port: a new mock can bind it. (A port below the ephemeral range: a port-0 one can be
        // taken by any outgoing connection of the process once it is free.)
        let third = try await MockFixture(port: try StablePort.next())
        let port = third.mock.port
        await third.stop()
        await third.mock.stop()  // stopping twice is harmless
        let again = try await MockAPNs.start(MockAPNsConfiguration(port: port, security: .h2c))
        #expect(again.port == port)
        await again.stop()
    }

    @Test func acceptedNotificationsReachASimulatedDevice() async throws {
        let fixture = try await MockFixture()
        let device = SimulatedNotificationCenter()
        _ = try await device.requestAuthorization(options: [.alert])
        await device.setNotificationCategories([
            Pushbutton.Category("reply", actions: [Action("like", title: "Like")])
        ])
        fixture.mock.forward(to: device, token: MockFixture.token(1))
        let client = try fixture.client()
        let notification = try MockFixture.notification()
        #expect(await client.send(notification).isDelivered)
        #expect(await client.send(try MockFixture.notification(token: MockFixture.token(2))).isDelivered)
        await fixture.mock.deliveriesSettled()
        let shown = await device.deliveredNotifications
        #expect(shown.count == 1)  // only the one addressed to this device
        #expect(shown.first?.notification.identifier == notification.apnsID.uuidString.lowercased())
        #expect(shown.first?.buttons.map(\.identifier) == ["like"])
        await client.shutdown()
        await fixture.stop()
    }
}
