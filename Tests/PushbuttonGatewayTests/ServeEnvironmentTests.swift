import Foundation
import PushbuttonAPNs
import PushbuttonGateway
import PushbuttonSupport
import Testing

/// `pushbutton serve` configured the way containers are: variables only, secrets from `…_FILE`,
/// `--print-config`, and a bad variable's one-line error.
@Suite(.timeLimit(.minutes(5)))
struct ServeEnvironmentTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "pushbutton-serve-env-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try GatewayFixture.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        try P256PrivateKey.generate().pemRepresentation.write(
            toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o600)
    }

    /// One app, all from variables (paths relative to the process's directory, as in a container).
    var variables: [String: String] {
        [
            "PUSHBUTTON_LISTEN": "127.0.0.1:0", "PUSHBUTTON_STORE": "sqlite:gw.db",
            "PUSHBUTTON_APP_ID": "chat", "PUSHBUTTON_APP_TOPIC": GatewayFixture.topic,
            "PUSHBUTTON_APP_MANIFEST_FILE": "manifest.json", "PUSHBUTTON_APP_KEY_FILE": "AuthKey.p8",
            "PUSHBUTTON_APP_KEY_ID": GatewayFixture.keyID, "PUSHBUTTON_APP_TEAM_ID": GatewayFixture.teamID,
            "PUSHBUTTON_APP_SECRET_KEYS": APIKey.digestText(of: GatewayFixture.secret),
            "PUSHBUTTON_APP_APNS_HOST": "127.0.0.1", "PUSHBUTTON_APP_APNS_PORT": "2197",
        ]
    }

    func run(_ arguments: [String], _ variables: [String: String]) async throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let directory = self.directory
        return try await Blocking.run {
            let process = ChildProcess()
            process.executableURL = ServeProcess.binary
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            // Only these variables (and PATH): the test's own environment must not leak PUSHBUTTON_… in.
            process.environment = variables.merging(["PATH": "/usr/bin:/bin"]) { first, _ in first }
            let name = UUID().uuidString
            _ = FileManager.default.createFile(atPath: "\(directory)/\(name).out", contents: nil)
            _ = FileManager.default.createFile(atPath: "\(directory)/\(name).err", contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/\(name).out"))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/\(name).err"))
            try process.run()
            let exit = ProcessExit.wait(for: process)
            return (
                exit.status, try String(contentsOfFile: "\(directory)/\(name).out", encoding: .utf8),
                try String(contentsOfFile: "\(directory)/\(name).err", encoding: .utf8)
            )
        }
    }

    @Test func variablesAloneConfigureAndCheckTheGateway() async throws {
        let checked = try await run(["serve", "--check"], variables)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("the environment: the configuration is valid (1 app(s)"), "\(checked.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory + "/gw.db"))
    }

    @Test func printConfigShowsEverySourceAndNoSecret() async throws {
        try "postgres://pb:hunter2@db.internal/pb\n".write(
            toFile: directory + "/store-url", atomically: true, encoding: .utf8)
        var environment = variables
        environment["PUSHBUTTON_STORE"] = nil
        environment["PUSHBUTTON_STORE_FILE"] = "store-url"
        environment["PUSHBUTTON_WEBHOOK_URL"] = "https://backend.example.com/events"
        environment["PUSHBUTTON_WEBHOOK_SECRET"] = "a-webhook-secret-of-32-characters"
        let printed = try await run(["serve", "--print-config", "--port", "9443"], environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("store = postgres://pb:***@db.internal/pb  (PUSHBUTTON_STORE_FILE)"), "\(lines)")
        #expect(lines.contains("webhook.secret = ***  (PUSHBUTTON_WEBHOOK_SECRET)"))
        #expect(lines.contains("listen.port = 9443  (--port)"))
        #expect(lines.contains("listen.host = 127.0.0.1  (PUSHBUTTON_LISTEN)"))
        #expect(lines.contains("workers.count = 2  (default)"))
        #expect(lines.contains("apps[0].topic = \(GatewayFixture.topic)  (PUSHBUTTON_APP_TOPIC)"))
        #expect(!printed.stdout.contains("hunter2") && !printed.stdout.contains("a-webhook-secret"))
    }

    @Test func aBadVariableStopsWithOneLocatedLine() async throws {
        var environment = variables
        environment["PUSHBUTTON_WORKERS"] = "many"
        let bad = try await run(["serve"], environment)
        #expect(bad.status == 1)
        let lines = bad.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "PUSHBUTTON_WORKERS: error: workers.count: 'count' must be an integer, not a string "
                + "[type-mismatch]", "\(bad.stderr)")
        #expect(
            lines.last == "pushbutton: error: the configuration from the environment has errors (see above); "
                + "the gateway did not start")
    }
}
