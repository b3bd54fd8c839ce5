import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonSupport
import Testing

/// The client's observer hook against the mock: counts, latencies, connections, GOAWAY, token mints, and
/// log lines that never carry a device token or a provider token.
@Suite(.timeLimit(.minutes(2))) struct ObservabilityTests {
    /// Collects events and log lines for inspection.
    final class Collector: APNsObserver {
        let events = Locked<[APNsEvent]>([])
        func observe(_ event: APNsEvent) { events.withLock { $0.append(event) } }
        var all: [APNsEvent] { events.withLock { $0 } }
    }

    static func client(_ fixture: MockFixture, observer: any APNsObserver) throws -> APNsClient {
        APNsClient(
            transport: try NGHTTP2Transport(.init(environment: fixture.mock.environment)),
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID),
            retryPolicy: RetryPolicy(baseBackoff: .milliseconds(2)), requestTimeout: .seconds(5), observer: observer)
    }

    @Test func statisticsCountDeliveredRejectedByReasonLatencyConnectionsAndTokens() async throws {
        let fixture = try await MockFixture()
        fixture.mock.registry.register(token: MockFixture.token(1), topic: MockFixture.topic)
        fixture.mock.registry.register(token: MockFixture.token(2), topic: MockFixture.topic)
        fixture.mock.registry.unregister(token: MockFixture.token(3))
        let statistics = APNsStatistics()
        let client = try Self.client(fixture, observer: statistics)
        for number in [1, 2, 3, 4] {
            _ = await client.send(try MockFixture.notification(token: MockFixture.token(number)))
        }
        await client.shutdown()
        let counters = statistics.counters
        #expect(counters.sent == 4 && counters.delivered == 2 && counters.retried == 0)
        #expect(counters.rejectedByReason == ["Unregistered": 1, "BadDeviceToken": 1])
        #expect(counters.latency.count == 4 && counters.latency.maximumMilliseconds > 0)
        #expect(counters.latency.counts.reduce(0, +) == 4)
        #expect(counters.connectionsOpened == 1 && counters.connectionsClosed == 1)
        #expect(counters.tokensMinted == 1 && counters.tokenRefreshes == 0)
        #expect(counters.lines.contains("rejected.Unregistered 1") && counters.lines.contains("delivered 2"))
        await fixture.stop()
    }

    @Test func retriesAndGoawaysAreReported() async throws {
        let fixture = try await MockFixture(
            faults: FaultPlan(seed: 7, serviceUnavailableRate: 0.3, goawayAfterStreams: 10))
        let collector = Collector()
        let statistics = APNsStatistics()
        let client = try Self.client(fixture, observer: APNsObserverGroup([collector, statistics]))
        var delivered = 0
        for number in 1...40 {
            if await client.send(try MockFixture.notification(token: MockFixture.token(number))).isDelivered {
                delivered += 1
            }
        }
        await client.shutdown()
        let counters = statistics.counters
        #expect(counters.delivered == delivered && delivered > 30)
        // Every attempt is a first attempt of a notification (40) or a retry.
        #expect(counters.retried > 0 && counters.sent == 40 + counters.retried)
        #expect(counters.delivered + counters.rejected + counters.failed == 40)
        #expect(counters.goaways >= 3 && counters.connectionsOpened >= 4)
        let events = collector.all
        #expect(events.contains { if case .retried = $0 { true } else { false } })
        #expect(events.contains { if case .goaway(_, "Shutdown") = $0 { true } else { false } })
        await fixture.stop()
    }

    @Test func anExpiredTokenIsRefreshedAndReported() async throws {
        let clock = Locked(Date())
        let now: @Sendable () -> Date = { clock.withLock { $0 } }
        let fixture = try await MockFixture(now: now)
        let statistics = APNsStatistics()
        let client = APNsClient(
            transport: try NGHTTP2Transport(.init(environment: fixture.mock.environment)),
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID, now: now),
            retryPolicy: RetryPolicy(baseBackoff: .milliseconds(2)), observer: statistics)
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        clock.withLock { $0 += 61 * 60 }  // the token is now older than APNs' hour
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        await client.shutdown()
        #expect(statistics.counters.tokensMinted == 2 && statistics.counters.tokenRefreshes == 1)
        await fixture.stop()
    }

    @Test func logLinesNeverCarryADeviceTokenOrAProviderToken() async throws {
        let fixture = try await MockFixture(faults: FaultPlan(seed: 3, serviceUnavailableRate: 0.5))
        fixture.mock.registry.unregister(token: MockFixture.token(9))
        let lines = Locked<[String]>([])
        let logger = APNsLogObserver(minimumLevel: .debug) { level, line in
            lines.withLock { $0.append("\(level) \(line)") }
        }
        let client = try Self.client(fixture, observer: logger)
        let tokens = (1...9).map(MockFixture.token)
        for token in tokens { _ = await client.send(try MockFixture.notification(token: token)) }
        let channel = try #require(fixture.mock.channels.add(bundleID: MockFixture.topic))
        _ = await client.send(APNsBroadcast(bundleID: MockFixture.topic, channelID: channel.id, payload: [0x7B, 0x7D]))
        await client.shutdown()
        let logged = lines.withLock { $0 }
        #expect(logged.count > 20, "\(logged)")
        #expect(logged.contains { $0.hasPrefix("debug delivered") && $0.contains("ab0000…(64 chars)") })
        #expect(logged.contains { $0.hasPrefix("warning rejected") && $0.contains("410 Unregistered") })
        #expect(logged.contains { $0.hasPrefix("info retrying") })
        #expect(logged.contains { $0.contains("broadcast request answered 200") })
        let jwtPrefix = try ProviderToken(
            key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID, issuedAt: Date()
        ).value.prefix(20)
        for line in logged {
            for token in tokens { #expect(!line.contains(token) && !line.contains(token.dropFirst(6).prefix(20))) }
            #expect(!line.contains(jwtPrefix) && !line.lowercased().contains("bearer") && !line.contains("PRIVATE KEY"))
        }
        await fixture.stop()
    }

    @Test func channelRequestsAndBroadcastsAreCountedByKindAndStatus() async throws {
        let fixture = try await MockFixture()
        let statistics = APNsStatistics()
        let channels = try ChannelManagementTests.channels(fixture, observer: statistics)
        let channel = try await channels.create(bundleID: MockFixture.topic)
        _ = try? await channels.read(bundleID: MockFixture.topic, channelID: "YWJjZA==")
        _ = try await channels.delete(bundleID: MockFixture.topic, channelID: channel.id)
        await channels.shutdown()
        #expect(
            statistics.counters.requestsByKindAndStatus == ["channel.201": 1, "channel.410": 1, "channel.204": 1])
        #expect(statistics.counters.tokensMinted == 1 && statistics.counters.connectionsOpened == 1)
        await fixture.stop()
    }

    @Test func theHistogramBoundsItsQuantiles() {
        var histogram = APNsLatencyHistogram()
        #expect(histogram.upperBound(ofQuantile: 0.5) == 0)
        for milliseconds in [1, 3, 3, 4, 8, 15, 40, 90, 90, 700] { histogram.record(.milliseconds(milliseconds)) }
        #expect(histogram.count == 10 && histogram.maximumMilliseconds == 700)
        #expect(histogram.upperBound(ofQuantile: 0.5) == 10)  // the 5th of 10 is 8 ms, in the bucket up to 10
        #expect(histogram.upperBound(ofQuantile: 0.99) == 700)
        #expect(abs(histogram.meanMilliseconds - 95.4) < 0.001)
        #expect(histogram.counts[0] == 1 && histogram.counts[2] == 3)
    }

    @Test func eventLevelsAndLinesReadWell() throws {
        let token = try DeviceToken(MockFixture.token(5))
        let id = UUID(uuidString: "8F0A0F5E-2B36-4E6A-9C77-2D6E5C1B2A10")!
        let rejected = APNsEvent.rejected(
            apnsID: id, deviceToken: token, status: 400, reason: APNsReason(rawValue: "Bad\u{1B}[31m"),
            latency: .milliseconds(3))
        #expect(rejected.level == .warning)
        #expect(!rejected.description.contains("\u{1B}") && rejected.description.contains("ab0000…(64 chars)"))
        #expect(APNsEvent.connectionClosed(origin: "https://h:1", reason: nil).level == .info)
        #expect(APNsEvent.connectionFailed(origin: "https://h:1", reason: "refused").level == .error)
        #expect(APNsEvent.requestAnswered(.broadcast, status: 200, reason: nil, latency: .zero).level == .debug)
        #expect(APNsEvent.requestAnswered(.broadcast, status: 410, reason: nil, latency: .zero).level == .warning)
    }
}
