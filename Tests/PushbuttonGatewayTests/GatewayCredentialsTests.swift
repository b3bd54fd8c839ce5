import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The gateway's ways to APNs beside a provider key: a PKCS#12 certificate with its pass phrase in a file,
/// and an HTTP CONNECT proxy (from the configuration or the environment, or none).
@Suite(.timeLimit(.minutes(2)))
struct GatewayCredentialsTests {
    /// A configuration of one app, `auth` and the top-level `extra` members as given.
    static func configurationText(auth: String, extra: String = "", port: Int = 2197, ca: String = "ca.pem")
        -> String
    {
        """
        {
          "listen": {"host": "127.0.0.1", "port": 0},
          "store": "sqlite:gateway.db",
          \(extra)
          "workers": {"count": 1, "batchSize": 50, "pollMilliseconds": 20, "apnsTimeoutSeconds": 600},
          "apps": [
            {"id": "chat", "topic": "com.example.chat", "manifest": "manifest.json",
             "environment": {"host": "127.0.0.1", "port": \(port), "ca": "\(ca)"},
             "auth": \(auth),
             "secretKeys": ["\(APIKey.digestText(of: GatewayFixture.secret))"]}
          ]
        }
        """
    }

    static func parse(_ text: String, in directory: TemporaryDirectory) throws -> GatewayConfiguration.ParseResult {
        try GatewayFixture.manifest.write(toFile: directory.path + "/manifest.json", atomically: true, encoding: .utf8)
        return GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory.path)
    }

    @Test func aPKCS12BundleAndAProxyAreReadWithPathsResolved() throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-gateway-creds")
        defer { directory.remove() }
        let parsed = try Self.parse(
            Self.configurationText(
                auth: #"{"pkcs12": "push.p12", "passphraseFile": "secrets/push.pass"}"#,
                extra: #""proxy": "http://alice:s3cret@proxy.internal:3128","#), in: directory)
        let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
        guard case .pkcs12(let file, let passphraseFile) = configuration.apps[0].credentials else {
            Issue.record("expected PKCS#12 credentials, got \(configuration.apps[0].credentials)")
            return
        }
        #expect(file == directory.path + "/push.p12")
        #expect(passphraseFile == directory.path + "/secrets/push.pass")
        guard case .through(let proxy) = configuration.proxy else {
            Issue.record("expected a proxy, got \(configuration.proxy)")
            return
        }
        #expect(proxy.host == "proxy.internal" && proxy.port == 3128 && proxy.username == "alice")
        // NO_PROXY still names the hosts that bypass a configured proxy.
        let resolved = try configuration.proxy.resolve(["NO_PROXY": "localhost,.corp"])
        #expect(resolved?.bypass == ["localhost", ".corp"])

        let bundleWithoutPassphrase = try Self.parse(
            Self.configurationText(auth: #"{"pkcs12": "push.p12"}"#), in: directory)
        guard case .pkcs12(_, nil) = try #require(bundleWithoutPassphrase.configuration).apps[0].credentials else {
            Issue.record("expected a PKCS#12 bundle without a pass phrase file")
            return
        }
    }

    @Test func withoutAProxySettingTheEnvironmentDecidesAndFalseMeansDirect() throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-gateway-creds")
        defer { directory.remove() }
        let key = #"{"key": "AuthKey.p8", "keyId": "KEY1234567", "teamId": "TEAM123456"}"#
        let absent = try #require(try Self.parse(Self.configurationText(auth: key), in: directory).configuration)
        #expect(absent.proxy == .environment)
        #expect(try absent.proxy.resolve([:]) == nil)
        let fromEnvironment = try absent.proxy.resolve(["HTTPS_PROXY": "http://gate:8080", "NO_PROXY": "127.0.0.1"])
        #expect(fromEnvironment?.host == "gate" && fromEnvironment?.bypass == ["127.0.0.1"])
        let direct = try #require(
            try Self.parse(Self.configurationText(auth: key, extra: #""proxy": false,"#), in: directory)
                .configuration)
        #expect(direct.proxy == .direct)
        #expect(try direct.proxy.resolve(["HTTPS_PROXY": "http://gate:8080"]) == nil)
    }

    @Test func mixedCredentialsAndBadProxiesAreLocatedAndNeverShowAPassword() throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-gateway-creds")
        defer { directory.remove() }
        let mixed = try Self.parse(
            Self.configurationText(
                auth: #"{"key": "AuthKey.p8", "keyId": "K", "teamId": "T", "pkcs12": "push.p12"}"#,
                extra: #""proxy": "ftp://bob:hunter2@proxy.internal","#), in: directory)
        #expect(mixed.configuration == nil)
        let found = Dictionary(grouping: mixed.diagnostics, by: { $0.path.description })
        #expect(found["apps[0].auth"]?.first?.message.contains("one kind of credentials") == true, "\(found)")
        let proxy = try #require(found["proxy"]?.first, "\(mixed.diagnostics)")
        #expect(proxy.location?.line == 4)
        #expect(!"\(proxy)".contains("hunter2"), "\(proxy)")

        let stray = try Self.parse(
            Self.configurationText(
                auth: #"{"certificate": "c.pem", "certificateKey": "k.pem", "passphraseFile": "p"}"#,
                extra: #""proxy": 3128,"#), in: directory)
        let strayFound = Dictionary(grouping: stray.diagnostics, by: { $0.path.description })
        #expect(strayFound["apps[0].auth.passphraseFile"]?.first?.hint?.contains("pkcs12") == true, "\(strayFound)")
        #expect(strayFound["proxy"]?.first?.code == .typeMismatch)
    }

    @Test func theGatewaySendsWithAPKCS12CertificateThroughAProxy() async throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-gateway-p12")
        defer { directory.remove() }
        let certificates = try await TestCertificates(directory: directory.path + "/clients")
        var mockConfiguration = MockAPNsConfiguration(security: .selfSigned(directory: directory.path + "/mock"))
        mockConfiguration.clientCertificateAuthority = certificates.caFile
        let mock = try await MockAPNs.start(mockConfiguration)
        let answers = Locked(0)
        let answered = ChangeSignal()
        mock.onAnswer { _ in
            answers.withLock { $0 += 1 }
            answered.notify()
        }
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let app = try await certificates.client("chat", bundleID: GatewayFixture.topic)
        let parsed = try Self.parse(
            Self.configurationText(
                auth: #"{"pkcs12": "\#(app.pkcs12)", "passphraseFile": "\#(app.passphraseFile)"}"#,
                extra: #""proxy": "\#(proxy.url())","#, port: mock.port, ca: mock.caFile ?? ""), in: directory)
        let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
        let gateway = try await Gateway.start(configuration)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(gateway.port)/v1/apps/chat/notifications")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(
            #"{"to": {"tokens": ["\#(GatewayFixture.token(1))"]}, "payload": {"aps": {"alert": "Hi"}}}"#.utf8)
        let (data, response) = try await TestHTTP.session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 202, "\(String(decoding: data, as: UTF8.self))")
        // The mock tells of its answer, then records the acceptance on its own thread.
        await answered.wait { answers.withLock { $0 } > 0 }
        await yieldUntil { !mock.notifications.isEmpty }
        #expect(mock.notifications.count == 1)
        #expect(mock.notifications.first?.topic == GatewayFixture.topic)
        #expect(proxy.requests.map(\.target) == ["127.0.0.1:\(mock.port)"])
        await gateway.stop()

        // A wrong pass phrase stops the start with the app's name and what is wrong, never the pass phrase.
        let wrong = directory.path + "/wrong.pass"
        try "guess-again\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        let refused = try #require(
            try Self.parse(
                Self.configurationText(
                    auth: #"{"pkcs12": "\#(app.pkcs12)", "passphraseFile": "\#(wrong)"}"#, extra: #""proxy": false,"#,
                    port: mock.port, ca: mock.caFile ?? ""), in: directory
            ).configuration)
        await #expect {
            _ = try await Gateway.start(refused)
        } throws: { error in
            let text = "\(error)"
            return text.contains("app 'chat'") && text.contains("pass phrase") && !text.contains("guess-again")
        }
        await mock.stop()
    }
}
