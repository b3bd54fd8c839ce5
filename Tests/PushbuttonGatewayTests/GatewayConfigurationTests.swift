import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonGateway
import Testing

@Suite(.timeLimit(.minutes(5)))
struct GatewayConfigurationTests {
    func directory() throws -> String {
        let path = NSTemporaryDirectory() + "pushbutton-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try GatewayFixture.manifest.write(toFile: path + "/manifest.json", atomically: true, encoding: .utf8)
        return path
    }

    /// The old `workers.requestTimeoutSeconds` is still read as the APNs timeout, with a warning.
    @Test func theWorkersOldTimeoutNameIsReadWithAWarning() throws {
        let base = try directory()
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: nil, store: "sqlite:gateway.db"
        ).replacingOccurrences(of: #""apnsTimeoutSeconds": 600"#, with: #""requestTimeoutSeconds": 6"#)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
        #expect(configuration.workers.requestTimeout == .seconds(6))
        let warning = try #require(parsed.diagnostics.first { $0.path.description == "workers.requestTimeoutSeconds" })
        #expect(warning.severity == .warning && warning.message.contains("apnsTimeoutSeconds"))
    }

    /// The webhook's events live in the store now: an old `outbox` setting still starts, with a warning.
    @Test func theOldWebhookOutboxSettingIsAWarning() throws {
        let base = try directory()
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: 9000, store: "sqlite:gateway.db"
        ).replacingOccurrences(
            of: #""secret": "\#(GatewayFixture.webhookSecret)""#,
            with: #""secret": "\#(GatewayFixture.webhookSecret)", "outbox": "w.outbox""#)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        #expect(parsed.configuration?.webhook != nil, "\(parsed.diagnostics)")
        let warning = try #require(parsed.diagnostics.first { $0.path.description == "webhook.outbox" })
        #expect(warning.severity == .warning && warning.message.contains("no longer used"))
    }

    @Test func theFixturesConfigurationReadsWithPathsResolved() throws {
        let base = try directory()
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: "ca.pem", webhookPort: 9000, store: "sqlite:gateway.db")
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
        #expect(configuration.store == "sqlite:\(base)/gateway.db")
        #expect(configuration.apps.map(\.id) == ["chat", "other"])
        #expect(configuration.apps[0].environment.caFile == "\(base)/ca.pem")
        #expect(configuration.apps[0].manifestPath == "\(base)/manifest.json")
        #expect(configuration.workers.lease == .seconds(30))
        #expect(configuration.listen.maximumBodyBytes == 4_194_304)
        #expect(configuration.maximumRecipients == 5000)
    }

    @Test func everyProblemIsReportedWithItsLineAndColumn() throws {
        let base = try directory()
        let text = """
            {
              "listen": {"host": "localhost", "port": 70000},
              "store": "mysql://db",
              "webhook": {"url": "ftp://x", "secret": "short"},
              "apps": [
                {"id": "chat app", "topic": "com.example.chat", "manifest": "missing.json",
                 "auth": {"key": "k.p8", "keyId": "K"},
                 "secretKeys": ["pb_sk_plaintext"], "colour": "red"}
              ]
            }
            """
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        #expect(parsed.configuration == nil)
        let found = Dictionary(grouping: parsed.diagnostics, by: { $0.path.description })
        #expect(found["listen.host"]?.first?.code == .unknownValue)
        #expect(found["listen.port"]?.first?.code == .valueRange)
        #expect(found["listen.port"]?.first?.location?.line == 2)
        #expect(found["store"]?.first?.location?.line == 3)
        #expect(found["webhook.url"] != nil)
        #expect(found["webhook.secret"]?.first?.hint?.contains("openssl rand") == true)
        #expect(found["apps[0].id"] != nil)
        #expect(found["apps[0].manifest"]?.first?.location?.line == 6)
        #expect(found["apps[0].auth.teamId"]?.first?.code == .missingField)
        #expect(found["apps[0].secretKeys[0]"]?.first?.hint?.contains("--hash-key") == true)
        #expect(found["apps[0].colour"]?.first?.code == .unknownKey)
        #expect(found["apps[0].colour"]?.first?.location?.line == 8)
    }

    @Test func syntaxErrorsAndMissingAppsAreDiagnosed() throws {
        let base = try directory()
        let broken = GatewayConfiguration.parse(Array(#"{"apps": [}"#.utf8), baseDirectory: base)
        #expect(broken.diagnostics.first?.code == .jsonSyntax)
        #expect(broken.diagnostics.first?.location != nil)
        let empty = GatewayConfiguration.parse(Array(#"{"apps": []}"#.utf8), baseDirectory: base)
        #expect(empty.diagnostics.first?.path.description == "apps")
    }

    @Test func keysAreConfiguredByDigest() {
        #expect(
            APIKey.digestText(of: "abc") == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let secret = APIKey.generate(.secret)
        #expect(secret.hasPrefix("pb_sk_") && secret.count == 70)
        #expect(APIKey.generate(.publishable).hasPrefix("pb_pk_"))
        #expect(APIKey.generate(.secret) != secret)
    }
}
