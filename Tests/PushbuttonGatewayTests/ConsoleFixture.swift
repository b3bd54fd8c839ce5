import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonSupport

/// A gateway on SQLite in front of the in-process mock APNs for the console's tests: an app whose 'message'
/// category has three buttons (in English and French), four registered devices, one of them dead at APNs.
struct ConsoleFixture {
    static let secret = "pb_sk_console_test_secret"
    static let publishable = "pb_pk_console_test_publishable"
    static let otherSecret = "pb_sk_console_other_secret"
    static let topic = "com.example.chat"
    static let manifest = """
        {"version": 1, "defaultLocale": "en", "locales": ["en", "fr"], "builtins": ["pushbutton.yes_no"],
         "categories": [
          {"identifier": "message", "options": ["customDismissAction"], "actions": [
            {"identifier": "reply", "title": {"key": "reply", "values": {"en": "Reply", "fr": "Répondre"}},
             "textInput": {"buttonTitle": {"key": "send", "values": {"en": "Send", "fr": "Envoyer"}},
                           "placeholder": {"key": "msg", "values": {"en": "Message", "fr": "Message"}}}},
            {"identifier": "like", "title": {"key": "like", "values": {"en": "Like", "fr": "J’aime"}}},
            {"identifier": "delete", "title": {"key": "delete", "values": {"en": "Delete", "fr": "Supprimer"}},
             "options": ["destructive", "authenticationRequired"]}]},
          {"identifier": "friend_request", "actions": [
            {"identifier": "accept", "title": {"key": "accept", "values": {"en": "Accept", "fr": "Accepter"}},
             "options": ["foreground"]}]}]}
        """

    let directory: String
    let mock: MockAPNs
    let gateway: Gateway
    var base: String { "http://127.0.0.1:\(gateway.port)" }

    /// Four devices: tokens 1–3 alive (two production in en-US and fr-FR, one sandbox), token 4 dead at APNs.
    static func token(_ number: Int) -> String { String(format: "%064x", 0xC0DE00 + number) }

    init() async throws {
        directory = NSTemporaryDirectory() + "pushbutton-console-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = try P256PrivateKey.generate()
        try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try Self.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .selfSigned(directory: directory + "/tls"),
                keys: [try MockProviderKey(keyID: GatewayFixture.keyID, teamID: GatewayFixture.teamID, privateKey: key)]
            ))
        for number in 1...3 { mock.registry.register(token: Self.token(number), topic: Self.topic) }
        mock.registry.unregister(token: Self.token(4), at: Date(timeIntervalSince1970: 1_900_000_000))
        let text = """
            {
              "listen": {"host": "127.0.0.1", "port": 0},
              "store": "sqlite:gateway.db",
              "workers": {"count": 1, "batchSize": 100, "leaseSeconds": 30, "pollMilliseconds": 20, "apnsTimeoutSeconds": 600},
              "apps": [
                {"id": "chat", "topic": "\(Self.topic)", "manifest": "manifest.json",
                 "environment": {"host": "127.0.0.1", "port": \(mock.port), "ca": "\(mock.caFile ?? "")"},
                 "auth": {"key": "AuthKey.p8", "keyId": "\(GatewayFixture.keyID)", "teamId": "\(GatewayFixture.teamID)"},
                 "secretKeys": ["\(APIKey.digestText(of: Self.secret))"],
                 "publishableKeys": ["\(APIKey.digestText(of: Self.publishable))"]},
                {"id": "other", "topic": "com.example.other", "manifest": "manifest.json",
                 "environment": {"host": "127.0.0.1", "port": \(mock.port), "ca": "\(mock.caFile ?? "")"},
                 "auth": {"key": "AuthKey.p8", "keyId": "\(GatewayFixture.keyID)", "teamId": "\(GatewayFixture.teamID)"},
                 "secretKeys": ["\(APIKey.digestText(of: Self.otherSecret))"]}
              ]
            }
            """
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
        guard let configuration = parsed.configuration else {
            throw GatewayFixture.FixtureError(description: "configuration: \(parsed.diagnostics)")
        }
        gateway = try await Gateway.start(configuration)
        let devices = [
            (1, "production", "en-US", "2.0"), (2, "production", "fr-FR", "2.0"), (3, "sandbox", "en-US", "2.1"),
            (4, "production", "en-US", "1.9"),
        ]
        for (number, environment, locale, version) in devices {
            let reply = try await curl(
                "PUT", "/v1/apps/chat/devices/\(Self.token(number))",
                arguments: [
                    "-H", "Authorization: Bearer \(Self.publishable)", "--data",
                    #"{"environment": "\#(environment)", "locale": "\#(locale)", "app_version": "\#(version)", "user_id": "u\#(number)", "tags": ["beta"]}"#,
                ]
            ).status
            guard reply == 200 else {
                throw GatewayFixture.FixtureError(description: "registering device \(number): \(reply)")
            }
        }
    }

    /// Reports taps for a campaign with the publishable key, as the devices' gateway clients do: each
    /// `(token, button, latency)` a button tap 'at' now; the answer's status.
    func postTaps(campaign: String, _ taps: [(token: Int, button: String, latency: Int)]) async throws -> Int {
        let events = taps.map { tap in
            """
            {"event_id": "\(UUID().uuidString.lowercased())", "token": "\(Self.token(tap.token))", \
            "notification": "\(campaign)", "campaign": "\(campaign)", "category": "message", "response": "button", \
            "button": "\(tap.button)", "foreground": false, "latency_ms": \(tap.latency), "at": "2026-12-01T10:00:00Z"}
            """
        }
        return try await curl(
            "POST", "/v1/apps/chat/taps",
            arguments: [
                "-H", "Authorization: Bearer \(Self.publishable)", "--data",
                #"{"taps": [\#(events.joined(separator: ","))]}"#,
            ]
        ).status
    }

    func stop() async {
        await gateway.stop()
        await mock.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// One request with curl: the status, the response headers (lowercase names) and the body. `jar` keeps
    /// cookies between calls; redirects are not followed.
    ///
    /// curl writes to files, not pipes: a PostgreSQL server that another suite starts meanwhile inherits the
    /// test process's open descriptors, and would keep a pipe's reader waiting for an end that never comes.
    func curl(_ method: String, _ path: String, jar: String? = nil, arguments: [String] = []) async throws -> (
        status: Int, headers: [String: String], body: String
    ) {
        let name = directory + "/curl-" + UUID().uuidString
        var command = ["-s", "--max-time", "20", "-X", method, "-D", name + ".headers", "-o", name + ".body"]
        if let jar { command += ["-b", jar, "-c", jar] }
        command += arguments + [base + path]
        let fullCommand = command
        let exit = try await Blocking.run { () throws -> ProcessExit in
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = fullCommand
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return ProcessExit.wait(for: process)
        }
        defer {
            try? FileManager.default.removeItem(atPath: name + ".headers")
            try? FileManager.default.removeItem(atPath: name + ".body")
        }
        let head = (try? String(contentsOfFile: name + ".headers", encoding: .utf8)) ?? ""
        guard exit.status == 0, !exit.signaled, !head.isEmpty else {
            throw GatewayFixture.FixtureError(description: "curl \(method) \(path) exited with \(exit.status)")
        }
        let lines = head.split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let body = (try? String(contentsOfFile: name + ".body", encoding: .utf8)) ?? ""
        return (status, headers, body)
    }

    /// Signs in with `key` into a new cookie jar; returns the jar and the session's CSRF token.
    func signIn(key: String = ConsoleFixture.secret) async throws -> (jar: String, csrf: String) {
        let jar = directory + "/cookies-\(UUID().uuidString).txt"
        let login = try await curl("POST", "/console/login", jar: jar, arguments: ["--data-urlencode", "key=\(key)"])
        guard login.status == 303 else {
            throw GatewayFixture.FixtureError(description: "sign-in: \(login.status) \(login.body)")
        }
        let page = try await curl("GET", "/console/compose", jar: jar)
        guard let range = page.body.range(of: #"name="csrf" value=""#),
            let end = page.body[range.upperBound...].firstIndex(of: "\"")
        else { throw GatewayFixture.FixtureError(description: "no CSRF token in the compose page") }
        return (jar, String(page.body[range.upperBound..<end]))
    }
}
