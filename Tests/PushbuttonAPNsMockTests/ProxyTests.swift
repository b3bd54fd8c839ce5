import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonTestSupport
import Testing

/// The sender through an HTTP CONNECT proxy of the tests' own (``ConnectProxy``), to the mock over TLS.
@Suite(.timeLimit(.minutes(2))) struct ProxyTests {
    private func client(
        _ fixture: MockFixture, proxy: HTTPProxy?, environment: APNsEnvironment? = nil,
        policy: RetryPolicy = RetryPolicy(maximumAttempts: 1)
    ) throws -> APNsClient {
        let transport = try NGHTTP2Transport(.init(environment: environment ?? fixture.mock.environment, proxy: proxy))
        let tokens = TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID)
        return APNsClient(transport: transport, tokens: tokens, retryPolicy: policy, requestTimeout: .seconds(5))
    }

    @Test func notificationsReachTheMockThroughTheTunnelWithTLSEndToEnd() async throws {
        let fixture = try await MockFixture()
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let client = try client(fixture, proxy: HTTPProxy(url: proxy.url()))
        for number in 1...5 {
            let result = await client.send(try MockFixture.notification(token: MockFixture.token(number)))
            #expect(result.isDelivered, "\(result)")
        }
        await client.shutdown()
        #expect(fixture.mock.notifications.count == 5)
        // One tunnel for one connection, to the mock's own host and port: TLS (SNI, verification) is for it.
        #expect(proxy.requests.map(\.target) == ["127.0.0.1:\(fixture.mock.port)"])
        #expect(proxy.tunnels == 1)
        await fixture.stop()
    }

    @Test func aWrongCertificateAuthorityStillFailsThroughTheProxy() async throws {
        let fixture = try await MockFixture()
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let otherDirectory = NSTemporaryDirectory() + "pushbutton-other-ca-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: otherDirectory) }
        let other = try SelfSignedAuthority(directory: otherDirectory)
        var environment = fixture.mock.environment
        environment.caFile = other.caFile
        let client = try client(fixture, proxy: HTTPProxy(url: proxy.url()), environment: environment)
        let result = await client.send(try MockFixture.notification())
        await client.shutdown()
        guard case .failed(_, _, let cause) = result else {
            Issue.record("expected a failure, got \(result)")
            return await fixture.stop()
        }
        #expect(cause.message.contains("TLS certificate verification failed"), "\(cause.message)")
        #expect(proxy.tunnels >= 1)  // the tunnel opened; TLS through it refused the mock's certificate
        #expect(fixture.mock.notifications.isEmpty)
        await fixture.stop()
    }

    @Test func aProxyThatWantsCredentialsSaysSoAndAcceptsThemInTheURL() async throws {
        let fixture = try await MockFixture()
        let proxy = try ConnectProxy(credentials: "alice:s3cret")
        defer { proxy.stop() }

        let without = try client(fixture, proxy: HTTPProxy(url: proxy.url()))
        let refused = await without.send(try MockFixture.notification())
        await without.shutdown()
        guard case .failed(_, _, let cause) = refused else {
            Issue.record("expected a failure, got \(refused)")
            return await fixture.stop()
        }
        #expect(cause.message.contains("wants credentials"), "\(cause.message)")
        #expect(cause.message.contains("407"), "\(cause.message)")

        let wrong = try client(fixture, proxy: HTTPProxy(url: proxy.url(credentials: "alice:wrong-pass")))
        let refusedAgain = await wrong.send(try MockFixture.notification())
        await wrong.shutdown()
        #expect("\(refusedAgain)".contains("refused the credentials"), "\(refusedAgain)")
        #expect(!"\(refusedAgain)".contains("wrong-pass"))
        #expect("\(refusedAgain)".contains("http://***@127.0.0.1:\(proxy.port)"), "\(refusedAgain)")

        let with = try client(fixture, proxy: HTTPProxy(url: proxy.url(credentials: "alice:s3cret")))
        let delivered = await with.send(try MockFixture.notification())
        await with.shutdown()
        #expect(delivered.isDelivered, "\(delivered)")
        #expect(proxy.requests.last?.authorization == "Basic " + Data("alice:s3cret".utf8).base64EncodedString())
        await fixture.stop()
    }

    @Test func aForbiddenTargetAndAnUnreachableProxyAreNamed() async throws {
        let fixture = try await MockFixture()
        let proxy = try ConnectProxy(allowedPorts: [443])
        defer { proxy.stop() }
        let forbidden = try client(fixture, proxy: HTTPProxy(url: proxy.url()))
        let result = await forbidden.send(try MockFixture.notification())
        await forbidden.shutdown()
        #expect(
            "\(result)".contains("does not allow a tunnel to 127.0.0.1:\(fixture.mock.port) (403 Forbidden)"),
            "\(result)")

        // A port nobody listens on: the proxy's address is in the message, without its credentials.
        let closed = try ConnectProxy()
        let closedPort = closed.port
        closed.stop()
        let unreachable = try client(fixture, proxy: HTTPProxy(url: "http://bob:hidden@127.0.0.1:\(closedPort)"))
        let lost = await unreachable.send(try MockFixture.notification())
        await unreachable.shutdown()
        #expect("\(lost)".contains("cannot connect to the proxy http://***@127.0.0.1:\(closedPort)"), "\(lost)")
        #expect(!"\(lost)".contains("hidden"))
        await fixture.stop()
    }

    @Test func aBypassedHostIsReachedDirectly() async throws {
        let fixture = try await MockFixture()
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let client = try client(fixture, proxy: HTTPProxy(url: proxy.url(), bypass: ["localhost", "127.0.0.1"]))
        let result = await client.send(try MockFixture.notification())
        await client.shutdown()
        #expect(result.isDelivered, "\(result)")
        #expect(proxy.requests.isEmpty)
        await fixture.stop()
    }
}
