import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNs

/// The client over the nghttp2 transport, against the APNs-like test server (h2c).
@Suite(.serialized, .timeLimit(.minutes(5))) struct APNsClientTests {
    static func token(_ prefix: String) throws -> DeviceToken {
        try DeviceToken(prefix + String(repeating: "a", count: 64 - prefix.count))
    }

    static func notification(_ prefix: String, id: UUID = UUID()) throws -> APNsNotification {
        APNsNotification(
            deviceToken: try token(prefix), payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), topic: "com.example.app",
            priority: 10, apnsID: id)
    }

    static func client(
        server: APNsTestServer, policy: RetryPolicy = RetryPolicy(baseBackoff: .milliseconds(5)),
        timeout: Duration = .seconds(5),
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> APNsClient {
        let transport = try NGHTTP2Transport(.init(environment: server.environment, connections: 2))
        let tokens = TokenProvider(
            key: try P256PrivateKey.generate(), keyID: "KEY1234567", teamID: "TEAM123456", now: now)
        return APNsClient(transport: transport, tokens: tokens, retryPolicy: policy, requestTimeout: timeout)
    }

    @Test func deliveredAndRejectedNotificationsGetTheirOutcome() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        let client = try Self.client(server: server)
        let ok = try Self.notification("0123")
        let delivered = await client.send(ok)
        #expect(
            delivered
                == .delivered(apnsID: ok.apnsID, uniqueID: "unique-" + ok.apnsID.uuidString.lowercased().prefix(8)))
        let gone = try Self.notification("dead")
        guard case .rejected(_, 410, .unregistered, let date?) = await client.send(gone) else {
            Issue.record("Unregistered not reported")
            return
        }
        #expect(date == Date(timeIntervalSince1970: 1_700_000_000))
        guard case .rejected(_, 400, .badDeviceToken, nil) = await client.send(try Self.notification("bad0")) else {
            Issue.record("BadDeviceToken not reported")
            return
        }
        // Final errors are never retried.
        #expect(try server.requests().filter { $0["token"]?.hasPrefix("bad0") == true }.count == 1)
        let request = try #require(try server.requests().first)
        #expect(request["topic"] == "com.example.app" && request["authorization"]?.hasPrefix("bearer ey") == true)
        await client.shutdown()
    }

    @Test func retriesReuseTheApnsIDAndTheSharedToken() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        let client = try Self.client(server: server)
        let flaky = try Self.notification("5000")
        let busy = try Self.notification("4290")
        #expect(await client.send(flaky).isDelivered)
        #expect(await client.send(busy).isDelivered)
        let requests = try server.requests()
        #expect(requests.filter { $0["apns_id"] == flaky.apnsID.uuidString.lowercased() }.count == 2)
        #expect(requests.filter { $0["apns_id"] == busy.apnsID.uuidString.lowercased() }.count == 3)
        // One provider token for everything: a 429 does not mint a new one.
        #expect(Set(requests.compactMap { $0["authorization"] }).count == 1)
        await client.shutdown()
    }

    @Test func anExpiredProviderTokenIsRefreshedOnceAndTheNotificationRetried() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        // Every reading of the clock is 21 minutes later, so the refresh is allowed.
        let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        let client = try Self.client(server: server) {
            time.withLock {
                $0 = $0.addingTimeInterval(21 * 60); return $0
            }
        }
        let notification = try Self.notification("e4e4")
        #expect(await client.send(notification).isDelivered)
        #expect(Set(try server.requests().compactMap { $0["authorization"] }).count == 2)
        #expect(await client.tokens?.mintCount == 2)
        await client.shutdown()
    }

    @Test func aResponseThatNeverComesTimesOutAndFails() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        let client = try Self.client(
            server: server, policy: RetryPolicy(maximumAttempts: 2, baseBackoff: .milliseconds(5)),
            timeout: .milliseconds(300))
        guard case .failed(_, 2, let cause) = await client.send(try Self.notification("5555")) else {
            Issue.record("a stalled stream must fail after its attempts")
            return
        }
        #expect(cause.message.contains("no response within"))
        // The stalled streams did not block the connection for others.
        #expect(await client.send(try Self.notification("0000")).isDelivered)
        await client.shutdown()
    }

    @Test func streamsLostToAGoawayMoveToANewConnection() async throws {
        let server = try APNsTestServer(goawayAfter: 5)
        defer { server.stop() }
        let client = try Self.client(server: server)
        let notifications = try (0..<40).map { _ in try Self.notification("0000") }
        let results = await withTaskGroup(of: APNsResult.self) { group in
            for notification in notifications { group.addTask { await client.send(notification) } }
            return await group.reduce(into: [APNsResult]()) { $0.append($1) }
        }
        #expect(results.count == 40 && results.allSatisfy(\.isDelivered))
        // Each notification was accepted exactly once; lost streams were retried with their apns-id.
        let accepted = Dictionary(grouping: try server.requests(), by: { $0["apns_id"] ?? "" })
        #expect(Set(accepted.keys) == Set(notifications.map { $0.apnsID.uuidString.lowercased() }))
        await client.shutdown()
    }

    @Test func aBulkStreamYieldsEveryResultWithBoundedWork() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        let client = try Self.client(server: server)
        let prefixes = ["0000", "dead", "bad0", "5000"]
        let input = AsyncStream<APNsNotification> { continuation in
            for index in 0..<200 { continuation.yield(try! Self.notification(prefixes[index % 4])) }
            continuation.finish()
        }
        var delivered = 0
        var rejected = 0
        var seen = Set<UUID>()
        for await (notification, result) in client.send(input, maximumInFlight: 16) {
            seen.insert(notification.apnsID)
            if result.isDelivered { delivered += 1 } else { rejected += 1 }
        }
        #expect(seen.count == 200 && delivered == 100 && rejected == 100)
        await client.shutdown()
        // After shutdown nothing is sent, and the caller is told so.
        guard case .failed(_, _, let cause) = await client.send(try Self.notification("0000")) else {
            Issue.record("a notification after shutdown must fail")
            return
        }
        #expect(cause.message == "the sender is shut down")
    }

    @Test func certificatesAreVerifiedAgainstTheGivenCAOnly() async throws {
        let server = try APNsTestServer()
        defer { server.stop() }
        // Without the private CA the server's certificate is not trusted: nothing is sent, and since the request
        // never reached APNs it spends no attempt (it ends `.unreachable`; the gateway holds its queue instead).
        let untrusting = APNsClient(
            transport: try NGHTTP2Transport(.init(environment: APNsEnvironment(host: "127.0.0.1", port: server.port))),
            tokens: TokenProvider(key: try P256PrivateKey.generate(), keyID: "K", teamID: "T"),
            retryPolicy: RetryPolicy(maximumAttempts: 1))
        guard case .failed(_, 0, let cause) = await untrusting.send(try Self.notification("0000")) else {
            Issue.record("an untrusted certificate must fail")
            return
        }
        #expect(cause.message.contains("certificate") || cause.message.contains("SSL"))
        #expect(try server.requests().isEmpty)
        await untrusting.shutdown()
    }

    @Test func cleartextWorksWhenAskedFor() async throws {
        let server = try APNsTestServer(tls: false)
        defer { server.stop() }
        let client = try Self.client(server: server)
        for _ in 0..<3 { #expect(await client.send(try Self.notification("0000")).isDelivered) }
        await client.shutdown()
    }
}
