import Foundation
import PushbuttonAPNs
import PushbuttonSupport
import Testing

/// `pushbutton serve` as a user runs it: key helpers, --check, and a bad configuration's exit.
@Suite(.timeLimit(.minutes(5)))
struct ServeCommandTests {
    func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await Blocking.run { try Self.runNow(arguments) }
    }

    static func runNow(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = ChildProcess()
        process.executableURL = ServeProcess.binary
        process.arguments = arguments
        let directory = NSTemporaryDirectory() + "pushbutton-serve-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        _ = FileManager.default.createFile(atPath: directory + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: directory + "/err", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/err"))
        try process.run()
        // Not waitUntilExit(): Foundation can miss a child's exit and wait for ever (ProcessExit reaps it).
        let exit = ProcessExit.wait(for: process)
        return (
            exit.status, try String(contentsOfFile: directory + "/out", encoding: .utf8),
            try String(contentsOfFile: directory + "/err", encoding: .utf8)
        )
    }

    @Test func keyHelpers() async throws {
        let hashed = try await run(["serve", "--hash-key", "abc"])
        #expect(hashed.status == 0)
        #expect(hashed.stdout == "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n")
        let generated = try await run(["serve", "--generate-key", "publishable"])
        #expect(generated.stdout.hasPrefix("key:    pb_pk_"))
        #expect(try await run(["serve", "--generate-key", "other"]).status == 2)
    }

    @Test func aBadConfigurationStopsWithItsDiagnostics() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-serve-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try #"{"apps": [], "stor": "x"}"#.write(toFile: directory + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try await run(["serve", "--config", directory + "/bad.json"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("bad.json:1:"))
        #expect(bad.stderr.contains("'stor' is not a setting here"))
        #expect(bad.stderr.hasSuffix("has errors (see above); the gateway did not start\n"))
        // No file and no variables: the environment's configuration lacks an app, and says how to give one.
        let empty = try await run(["serve"])
        #expect(empty.status == 1 && empty.stderr.contains("PUSHBUTTON_APP_ID"), "\(empty.stderr)")
        #expect(try await run(["serve", "--config", directory + "/missing.json"]).status == 1)
    }

    @Test func checkOpensEverythingAndExits() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-serve-check-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try GatewayFixture.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        let pem = try P256PrivateKey.generate().pemRepresentation
        try pem.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: nil, store: "sqlite:gw.db")
        try text.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        let checked = try await run(["serve", "--config", directory + "/gateway.json", "--check"])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.contains("the configuration is valid (2 app(s)"))
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/gw.db")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func secretFilesOthersCanReadAreWarnedAbout() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-serve-secrets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try GatewayFixture.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        try P256PrivateKey.generate().pemRepresentation.write(
            toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        // With a webhook, the configuration holds its secret.
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: 9, store: "sqlite:gw.db")
        try text.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o644)
        chmod(directory + "/gateway.json", 0o640)
        let open = try await run(["serve", "--config", directory + "/gateway.json", "--check"])
        #expect(open.status == 0, "\(open.stderr)")
        let warnings = open.stderr.split(separator: "\n").filter { $0.hasPrefix("pushbutton serve: warning: ") }
        #expect(warnings.count == 2, "\(open.stderr)")
        #expect(
            warnings.contains {
                $0.contains(
                    "the provider key '\(directory)/AuthKey.p8' is open to every user of this machine (mode 0644)")
            })
        #expect(
            warnings.contains {
                $0.contains(
                    "the configuration (it holds the webhook secret) '\(directory)/gateway.json' is open to its group")
            })
        chmod(directory + "/AuthKey.p8", 0o600)
        chmod(directory + "/gateway.json", 0o600)
        let closed = try await run(["serve", "--config", directory + "/gateway.json", "--check"])
        #expect(closed.status == 0 && !closed.stderr.contains("warning"), "\(closed.stderr)")
    }
}
