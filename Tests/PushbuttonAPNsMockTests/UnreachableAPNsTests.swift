import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

/// Tries that never reach APNs (nothing listens on its port) are not attempts: the retries' backoffs run on a
/// manual clock, and the answer once APNs is back is the notification's first attempt.
@Suite(.timeLimit(.minutes(2))) struct UnreachableAPNsTests {
    final class Collector: APNsObserver {
        let events = Locked<[APNsEvent]>([])
        func observe(_ event: APNsEvent) { events.withLock { $0.append(event) } }
        var all: [APNsEvent] { events.withLock { $0 } }
    }

    /// A client of the stopped mock's address (h2c: a mock started again on the port needs no new CA).
    static func client(
        _ fixture: MockFixture, attempts: Int, retries: ManualClock, observer: Collector
    ) throws -> APNsClient {
        APNsClient(
            transport: try NGHTTP2Transport(.init(environment: fixture.mock.environment)),
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID),
            retryPolicy: RetryPolicy(maximumAttempts: attempts, baseBackoff: .milliseconds(10)),
            requestTimeout: .seconds(30), observer: observer, clock: AnyDurationClock(retries))
    }

    @Test func refusedConnectionsSpendNoAttemptAndTheSenderEndsWithTheCauseUnreachable() async throws {
        // A port below the ephemeral range (StablePort), held once the mock stops: nothing else can take it, neither
        // another suite's server asking for port 0 (CI saw a try reach one and end "stream lost" instead of refused)
        // nor an outgoing connection (one took an ephemeral port between the stop and the hold: EADDRINUSE).
        let fixture = try await MockFixture(security: .h2c, port: try StablePort.next())
        await fixture.mock.stop()
        let held = try HeldPort(fixture.mock.port)
        let retries = ManualClock()
        let observer = Collector()
        let client = try Self.client(fixture, attempts: 2, retries: retries, observer: observer)
        let sending = Task { await client.send(try MockFixture.notification()) }
        // The first try is refused; its retry waits on the manual clock.
        await retries.waitForSleepers(1)
        retries.advance(by: .seconds(1))
        let result = try await sending.value
        guard case .failed(_, let attempts, let cause) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(attempts == 0, "no try reached APNs")
        #expect(cause.kind == .unreachable, "\(cause)")
        #expect(cause.message.contains("Connection refused"), "\(cause)")
        withExtendedLifetime(held) {}
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aNotificationSentOnceAPNsIsBackHasSpentOneAttempt() async throws {
        // Below the ephemeral range: the mock comes back on its port, which no outgoing connection can take meanwhile.
        let fixture = try await MockFixture(security: .h2c, port: try StablePort.next())
        let port = fixture.mock.port
        await fixture.mock.stop()
        let retries = ManualClock()
        let observer = Collector()
        let client = try Self.client(fixture, attempts: 5, retries: retries, observer: observer)
        let sending = Task { await client.send(try MockFixture.notification()) }
        await retries.waitForSleepers(1)
        // APNs is back on the same port before the retry.
        let back = try await MockAPNs.start(
            MockAPNsConfiguration(
                port: port, security: .h2c,
                keys: [
                    try MockProviderKey(keyID: MockFixture.keyID, teamID: MockFixture.teamID, privateKey: fixture.key)
                ]
            ))
        back.registry.register(token: MockFixture.token(1), topic: MockFixture.topic)
        retries.advance(by: .seconds(1))
        let result = try await sending.value
        #expect(result.isDelivered, "\(result)")
        let attempts = observer.all.compactMap { event -> Int? in
            if case .delivered(_, _, let attempts, _) = event { return attempts }
            return nil
        }
        #expect(attempts == [1], "the refused try is not an attempt: \(observer.all)")
        #expect(back.notifications.count == 1)
        await client.shutdown()
        await back.stop()
        await fixture.stop()
    }
}
