import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonGateway
import Testing

/// `PUSHBUTTON_…` variables laid over the configuration file (or standing alone): precedence, `NAME_FILE`
/// secrets, one app from variables, and diagnostics that name the variable.
@Suite(.timeLimit(.minutes(5)))
struct EnvironmentConfigurationTests {
    let base: String

    init() throws {
        base = NSTemporaryDirectory() + "pushbutton-env-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try GatewayFixture.manifest.write(toFile: base + "/manifest.json", atomically: true, encoding: .utf8)
    }

    /// The variables of one app on the mock, as a container would set them.
    var appVariables: [String: String] {
        [
            "PUSHBUTTON_APP_ID": "chat", "PUSHBUTTON_APP_TOPIC": "com.example.chat",
            "PUSHBUTTON_APP_MANIFEST_FILE": "manifest.json", "PUSHBUTTON_APP_APNS_HOST": "127.0.0.1",
            "PUSHBUTTON_APP_APNS_PORT": "2197", "PUSHBUTTON_APP_APNS_H2C": "true",
            "PUSHBUTTON_APP_KEY_FILE": "/run/secrets/AuthKey.p8", "PUSHBUTTON_APP_KEY_ID": "KEY123",
            "PUSHBUTTON_APP_TEAM_ID": "TEAM123",
            "PUSHBUTTON_APP_SECRET_KEYS": APIKey.digestText(of: "s1") + ", " + APIKey.digestText(of: "s2"),
        ]
    }

    func load(file text: String? = nil, _ environment: [String: String]) throws -> LoadedConfiguration {
        var file: String?
        if let text {
            file = base + "/gateway.json"
            try text.write(toFile: base + "/gateway.json", atomically: true, encoding: .utf8)
        }
        return GatewayConfiguration.load(
            file: file, bytes: file.map { Array(FileManager.default.contents(atPath: $0)!) }, environment: environment,
            currentDirectory: base)
    }

    @Test func oneAppFromVariablesAloneWithNoFile() throws {
        var environment = appVariables
        environment["PUSHBUTTON_LISTEN"] = "0.0.0.0:8443"
        environment["PUSHBUTTON_STORE"] = "sqlite:state/gateway.db"
        environment["PUSHBUTTON_WORKERS"] = "4"
        environment["PUSHBUTTON_SHUTDOWN_SECONDS"] = "12"
        let loaded = try load(environment)
        let configuration = try #require(loaded.configuration, "\(loaded.diagnostics)")
        #expect(configuration.listen.host == "0.0.0.0" && configuration.listen.port == 8443)
        #expect(configuration.store == "sqlite:\(base)/state/gateway.db")
        #expect(configuration.workers.count == 4)
        #expect(configuration.shutdownGrace == .seconds(12))
        let app = try #require(configuration.apps.first)
        #expect(configuration.apps.count == 1 && app.id == "chat" && app.topic == "com.example.chat")
        #expect(app.manifestPath == base + "/manifest.json")
        #expect(app.environment == APNsEnvironment(host: "127.0.0.1", port: 2197, cleartext: true))
        guard case .token(let keyFile, let keyID, let teamID) = app.credentials else {
            Issue.record("not token credentials: \(app.credentials)")
            return
        }
        #expect(keyFile == "/run/secrets/AuthKey.p8" && keyID == "KEY123" && teamID == "TEAM123")
        #expect(app.secretKeyDigests.count == 2)
        #expect(loaded.origin(of: "listen.port") == "PUSHBUTTON_LISTEN")
        #expect(loaded.origin(of: "apps[0].environment").hasPrefix("PUSHBUTTON_APP_APNS_"))
        #expect(loaded.origin(of: "workers.batchSize") == "default")
    }

    @Test func variablesWinOverTheFileAndTheRestStays() throws {
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: 9000, store: "sqlite:file.db")
        let loaded = try load(
            file: text,
            [
                "PUSHBUTTON_STORE": "postgres://pb@db/pb", "PUSHBUTTON_BATCH_SIZE": "50", "PUSHBUTTON_APP_ID": "other",
                "PUSHBUTTON_APP_TOPIC": "com.example.renamed",
            ])
        let configuration = try #require(loaded.configuration, "\(loaded.diagnostics)")
        #expect(configuration.store == "postgres://pb@db/pb")
        #expect(configuration.workers.batchSize == 50)
        #expect(configuration.workers.count == 2)  // the file's
        #expect(configuration.apps.map(\.id) == ["chat", "other"])  // PUSHBUTTON_APP_ID named the file's app
        #expect(configuration.apps[1].topic == "com.example.renamed")
        #expect(configuration.apps[1].manifestPath == base + "/manifest.json")  // the file's, from its directory
        #expect(loaded.origin(of: "store") == "PUSHBUTTON_STORE")
        #expect(loaded.origin(of: "workers.count") == base + "/gateway.json")
        #expect(loaded.origin(of: "apps[1].topic") == "PUSHBUTTON_APP_TOPIC")
    }

    @Test func secretsComeFromTheFilesNamedByFileVariables() throws {
        try "postgres://pb:hunter2@db/pb\n".write(toFile: base + "/store-url", atomically: true, encoding: .utf8)
        try "0123456789abcdef0123456789\n".write(toFile: base + "/webhook", atomically: true, encoding: .utf8)
        var environment = appVariables
        environment["PUSHBUTTON_STORE_FILE"] = "store-url"
        environment["PUSHBUTTON_WEBHOOK_URL"] = "https://backend.example.com/events"
        environment["PUSHBUTTON_WEBHOOK_SECRET_FILE"] = base + "/webhook"
        let loaded = try load(environment)
        let configuration = try #require(loaded.configuration, "\(loaded.diagnostics)")
        #expect(configuration.store == "postgres://pb:hunter2@db/pb")
        #expect(configuration.webhook?.secret == "0123456789abcdef0123456789")
        #expect(loaded.origin(of: "store") == "PUSHBUTTON_STORE_FILE")
        let printed = configuration.printableSettings
        #expect(printed.first { $0.path == "store" }?.value == "postgres://pb:***@db/pb")
        #expect(printed.first { $0.path == "webhook.secret" }?.value == "***")
        #expect(!printed.contains { $0.value.contains("hunter2") || $0.value.contains("0123456789abcdef") })
    }

    /// `requestTimeoutSeconds` meant two things (a client's request under `limits`, an APNs request under
    /// `workers`): the new names are read and printed; the old ones still work, with a warning naming the new.
    @Test func theTwoTimeoutsHaveTheirOwnNamesAndTheOldOnesWarn() throws {
        var environment = appVariables
        environment["PUSHBUTTON_CLIENT_REQUEST_TIMEOUT_SECONDS"] = "7"
        environment["PUSHBUTTON_APNS_TIMEOUT_SECONDS"] = "9"
        let loaded = try load(environment)
        let configuration = try #require(loaded.configuration, "\(loaded.diagnostics)")
        #expect(
            configuration.listen.requestTimeout == .seconds(7) && configuration.workers.requestTimeout == .seconds(9))
        #expect(!loaded.diagnostics.contains { $0.severity >= .warning }, "\(loaded.diagnostics)")
        let printed = Dictionary(configuration.printableSettings.map { ($0.path, $0.value) }) { first, _ in first }
        #expect(printed["limits.clientRequestTimeoutSeconds"] == "7" && printed["workers.apnsTimeoutSeconds"] == "9")
        #expect(printed["limits.requestTimeoutSeconds"] == nil && printed["workers.requestTimeoutSeconds"] == nil)

        var old = appVariables
        old["PUSHBUTTON_REQUEST_TIMEOUT_SECONDS"] = "11"
        let oldLoaded = try load(old)
        let oldConfiguration = try #require(oldLoaded.configuration, "\(oldLoaded.diagnostics)")
        #expect(oldConfiguration.listen.requestTimeout == .seconds(11))
        let warning = try #require(
            oldLoaded.diagnostics.first { $0.path.description == "limits.requestTimeoutSeconds" })
        #expect(warning.severity == .warning && warning.message.contains("clientRequestTimeoutSeconds"))
    }

    @Test func badValuesGetTheFilesDiagnosticsNamingTheVariable() throws {
        var environment = appVariables
        environment["PUSHBUTTON_WORKERS"] = "1000"
        environment["PUSHBUTTON_LISTEN"] = "0.0.0.0:http"
        environment["PUSHBUTTON_APP_APNS_H2C"] = "maybe"
        environment["PUSHBUTTON_WEBHOOK_SECRET"] = "inline-secret-long-enough"
        environment["PUSHBUTTON_WEBHOOK_SECRET_FILE"] = "/run/secrets/webhook"
        environment["PUSHBUTTON_STORE_FILE"] = base + "/absent"
        let loaded = try load(environment)
        #expect(loaded.configuration == nil)
        let found = zip(loaded.diagnostics, loaded.sources).map { ($0.1 ?? "file", $0.0.message) }
        func has(_ source: String, _ message: String) -> Bool {
            found.contains { $0.0 == source && $0.1.contains(message) }
        }
        #expect(has("PUSHBUTTON_WORKERS", "'count' is 1000, outside 0...256"), "\(found)")
        #expect(has("PUSHBUTTON_LISTEN", "'port' must be an integer, not a string"), "\(found)")
        #expect(has("PUSHBUTTON_APP_APNS_H2C", "'h2c' must be true or false"), "\(found)")
        #expect(has("PUSHBUTTON_WEBHOOK_SECRET_FILE", "both PUSHBUTTON_WEBHOOK_SECRET and"), "\(found)")
        #expect(has("PUSHBUTTON_STORE_FILE", "cannot read '\(base)/absent'"), "\(found)")
        #expect(loaded.diagnostics.allSatisfy { $0.location == nil })
    }

    @Test func anAppsVariablesNeedItsIdAndAFileErrorKeepsItsLine() throws {
        let missingID = try load(["PUSHBUTTON_APP_TOPIC": "com.example.chat"])
        #expect(missingID.configuration == nil)
        #expect(missingID.diagnostics.contains { $0.message.contains("PUSHBUTTON_APP_ID is not") })
        let text = GatewayFixture.configurationText(mockPort: 2197, caFile: nil, webhookPort: nil, store: "sqlite:x.db")
            .replacingOccurrences(of: #""batchSize": 200"#, with: #""batchSize": 0"#)
        let fromFile = try load(file: text, ["PUSHBUTTON_WORKERS": "3"])
        let diagnostic = try #require(fromFile.diagnostics.first)
        #expect(fromFile.sources.first == .some(nil))  // from the file
        #expect(diagnostic.location?.line == 5 && diagnostic.path.description == "workers.batchSize")
    }
}
