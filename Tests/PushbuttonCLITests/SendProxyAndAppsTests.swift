import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonTestSupport
import Testing

/// `pushbutton send` through a proxy, with a `.p12` certificate, and for several apps, run as a user runs it,
/// against mocks in this process and the tests' own CONNECT proxy.
@Suite(.timeLimit(.minutes(3))) struct SendProxyAndAppsTests {
    static let token = "ab" + String(repeating: "0", count: 61) + "1"

    struct Setup {
        let directory: TemporaryDirectory
        let mock: MockAPNs
        let keyFile: String

        init(topics: Set<String>? = nil, teamID: String = "TEAM123456") async throws {
            directory = try TemporaryDirectory(prefix: "pushbutton-send-proxy")
            let key = try P256PrivateKey.generate()
            keyFile = directory.path + "/AuthKey.p8"
            try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
            chmod(keyFile, 0o600)
            mock = try await MockAPNs.start(
                MockAPNsConfiguration(
                    security: .selfSigned(directory: directory.path + "/mock"),
                    keys: [try MockProviderKey(keyID: "KEY1234567", teamID: teamID, privateKey: key, topics: topics)]))
        }

        var base: [String] {
            [
                "send", "--key", keyFile, "--key-id", "KEY1234567", "--team-id", "TEAM123456", "--topic",
                "com.example.app", "--host", "127.0.0.1", "--port", "\(mock.port)", "--ca", mock.caFile ?? "",
                "--token", SendProxyAndAppsTests.token, "--body", "Hi", "--timeout", "5",
            ]
        }

        func stop() async {
            await mock.stop()
            directory.remove()
        }
    }

    /// The environment of the tests' process without any proxy variables, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        environment.merge(extra) { $1 }
        return environment
    }

    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) async throws
        -> CLI.Result
    {
        let result = try await Subprocess.run(
            CLI.productsDirectory.appendingPathComponent("pushbutton"), arguments, stdin: stdin, in: CLI.packageRoot,
            environment: Self.environment(environment))
        return CLI.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func proxyFlagAndHTTPSProxyTunnelAndNoProxyBypasses() async throws {
        let setup = try await Setup()
        let proxy = try ConnectProxy()
        defer { proxy.stop() }
        let flagged = try await Self.run(setup.base + ["--proxy", proxy.url()])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(proxy.tunnels == 1)

        let fromEnvironment = try await Self.run(setup.base, environment: ["HTTPS_PROXY": proxy.url()])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(proxy.tunnels == 2)

        let bypassed = try await Self.run(
            setup.base, environment: ["HTTPS_PROXY": proxy.url(), "NO_PROXY": "localhost,127.0.0.1"])
        #expect(bypassed.status == 0, "\(bypassed.stderr)")
        let direct = try await Self.run(setup.base + ["--no-proxy"], environment: ["https_proxy": proxy.url()])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(proxy.tunnels == 2)
        #expect(setup.mock.notifications.count == 4)

        let both = try await Self.run(setup.base + ["--no-proxy", "--proxy", proxy.url()])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--proxy and --no-proxy cannot be combined"), "\(both.stderr)")
        let bad = try await Self.run(setup.base + ["--proxy", "socks5://u:topsecret@h:1"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("only http://") && !bad.stderr.contains("topsecret"), "\(bad.stderr)")
        await setup.stop()
    }

    @Test func aProxyThatRefusesTheCredentialsIsNamedWithoutThem() async throws {
        let setup = try await Setup()
        let proxy = try ConnectProxy(credentials: "erin:right")
        defer { proxy.stop() }
        let refused = try await Self.run(setup.base + ["--proxy", proxy.url(credentials: "erin:wrong-one")])
        #expect(refused.status == 1)
        let output = refused.stdout + refused.stderr
        #expect(output.contains("refused the credentials"), "\(output)")
        #expect(output.contains("http://***@127.0.0.1:\(proxy.port)"), "\(output)")
        #expect(!output.contains("wrong-one"), "\(output)")
        let accepted = try await Self.run(setup.base + ["--proxy", proxy.url(credentials: "erin:right")])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        await setup.stop()
    }

    @Test func aP12CertificateWithAPassPhraseFileAuthenticates() async throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-send-p12")
        defer { directory.remove() }
        let certificates = try await TestCertificates(directory: directory.path + "/clients")
        var configuration = MockAPNsConfiguration(security: .selfSigned(directory: directory.path + "/mock"))
        configuration.clientCertificateAuthority = certificates.caFile
        let mock = try await MockAPNs.start(configuration)
        let app = try await certificates.client("app", bundleID: "com.example.app")
        let base = [
            "send", "--cert", app.pkcs12, "--topic", "com.example.app", "--host", "127.0.0.1", "--port",
            "\(mock.port)", "--ca", mock.caFile ?? "", "--token", Self.token, "--body", "Hi", "--timeout", "5",
        ]
        let sent = try await Self.run(base + ["--cert-passphrase-file", app.passphraseFile])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(mock.notifications.count == 1)

        let wrong = directory.path + "/wrong.pass"
        try "guess\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        chmod(wrong, 0o600)
        let refused = try await Self.run(base + ["--cert-passphrase-file", wrong])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the pass phrase does not open"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        let pemWithPassphrase = try await Self.run(
            base.map { $0 == app.pkcs12 ? app.certificate : $0 } + [
                "--cert-key", app.key, "--cert-passphrase-file", app.passphraseFile,
            ])
        #expect(pemWithPassphrase.status == 2, "\(pemWithPassphrase.stderr)")
        await mock.stop()
    }

    @Test func anAppsFileRoutesEachLineByItsTopicAndEnvironment() async throws {
        let first = try await Setup(topics: ["com.example.chat", "com.example.maps"])
        let second = try await Setup(topics: ["com.example.chat"], teamID: "TEAM999999")
        let apps: JSONValue = .object([
            "environments": .object([
                "one": .object([
                    "host": "127.0.0.1", "port": .integer(Int64(first.mock.port)),
                    "ca": .string(first.mock.caFile ?? ""),
                ]),
                "two": .object([
                    "host": "127.0.0.1", "port": .integer(Int64(second.mock.port)),
                    "ca": .string(second.mock.caFile ?? ""),
                ]),
            ]),
            "apps": .array([
                .object([
                    "topic": "com.example.chat", "environment": "one", "key": .string(first.keyFile),
                    "key-id": "KEY1234567", "team-id": "TEAM123456",
                ]),
                .object([
                    "topic": "com.example.maps", "environment": "one", "key": .string(first.keyFile),
                    "key-id": "KEY1234567", "team-id": "TEAM123456",
                ]),
                .object([
                    "topic": "com.example.chat", "environment": "two", "key": .string(second.keyFile),
                    "key-id": "KEY1234567", "team-id": "TEAM999999",
                ]),
            ]),
        ])
        let appsFile = first.directory.path + "/apps.json"
        chmod(second.keyFile, 0o644)  // the one key others can read
        try Data(JSONWriter.compact(apps)).write(to: URL(fileURLWithPath: appsFile))
        let token = Self.token
        let lines = [
            #"{"token":"\#(token)","topic":"com.example.chat","environment":"one","id":"a"}"#,
            #"{"token":"\#(token)","topic":"com.example.maps","id":"b"}"#,
            #"{"token":"\#(token)","topic":"com.example.chat","environment":"two","id":"c"}"#,
            #"{"token":"\#(token)","topic":"com.example.nobody","id":"d"}"#,
            #"{"token":"\#(token)","topic":"com.example.chat","id":"e"}"#,
            #"{"token":"\#(token)","environment":"three","id":"f"}"#,
        ].joined(separator: "\n")
        let result = try await Self.run(
            ["send", "--apps", appsFile, "--topic", "com.example.maps", "--body", "Hi", "--timeout", "5"],
            stdin: lines)
        #expect(result.status == 1, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("pushbutton: warning: ") }
        #expect(
            warnings == [
                "pushbutton: warning: \(appsFile): apps[2].key: the provider key '\(second.keyFile)' is open to every "
                    + "user of this machine (mode 0644): make it private with chmod 600 '\(second.keyFile)'"
            ], "\(result.stderr)")
        var statusByID: [String: String] = [:]
        var errorByID: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let object = try JSONParser.parse(String(line)).objectValue, let id = object["id"]?.stringValue
            else { continue }
            statusByID[id] = object["status"]?.stringValue
            errorByID[id] = object["error"]?.stringValue ?? object["reason"]?.stringValue
        }
        #expect(statusByID["a"] == "delivered")
        #expect(statusByID["b"] == "delivered")
        #expect(statusByID["c"] == "delivered")
        #expect(statusByID["d"] == "failed", "\(result.stdout)")
        #expect(errorByID["d"]?.contains("no app is configured for the topic 'com.example.nobody'") == true)
        #expect(errorByID["e"]?.contains("is configured for 2 environments") == true, "\(result.stdout)")
        #expect(statusByID["f"] == "invalid")
        #expect(errorByID["f"]?.contains("unknown environment 'three'") == true, "\(result.stdout)")
        #expect(first.mock.notifications.map(\.topic).sorted() == ["com.example.chat", "com.example.maps"])
        #expect(second.mock.notifications.map(\.topic) == ["com.example.chat"])

        let mixed = try await Self.run(["send", "--apps", appsFile, "--key", first.keyFile, "--body", "x"])
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("--key cannot be combined"), "\(mixed.stderr)")
        await first.stop()
        await second.stop()
    }
}
