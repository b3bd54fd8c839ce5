import Foundation
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonSupport

/// `pushbutton mock-apns`: runs the APNs stand-in until interrupted (or for `--duration` seconds).
struct MockAPNsCommand: Command {
    let name = "mock-apns"
    let summary = "Run a local APNs stand-in that validates, verifies tokens, injects faults and records."
    let discussion = """
        Listens on 127.0.0.1 (--port 0 picks a free port). TLS by default, with a certificate authority
        generated into --self-signed DIR (default: a fresh temporary directory): clients trust DIR/ca.pem.
        --cert FILE --key FILE (or --cert-key FILE) use your own certificate; --h2c serves cleartext HTTP/2.
        Provider tokens are verified against --auth-key FILE (a .p8 key, or its public half) with --key-id
        and --team-id; without one, a key is generated as DIR/AuthKey_<KEY ID>.p8 for your sender to use.
        Each answered request is printed as one NDJSON line on stdout (tokens redacted) unless --quiet;
        the first line says where it listens. Ctrl-C stops it and prints the counters on stderr.
        --record FILE appends each accepted request to FILE (created 0600) as one NDJSON line: its arrival
        time (received_at_us, microseconds since 1970, real-time clock), headers, full token and payload.
        Without --self-signed DIR, the generated files live in a temporary directory removed at exit.
        --client-ca FILE requires a client certificate that CA signed, as APNs does for certificate-based
        senders; the certificate's topics (its UID and Apple's topic extension) are the only ones allowed.
        --certificate-environment sandbox|production plays that APNs environment: a certificate made only
        for the other one is answered 403 BadCertificateEnvironment, as APNs answers it.
        Faults (--faults): comma-separated name=rate pairs among 429, 500, 503, refuse, drop, delay,
        silence, goaway (rates 0-1), plus delay-ms=N, goaway-after=N and seed=N.
        """
    static let host = Option<String>("--host", value: "ADDRESS", help: "The IPv4 address to bind (default 127.0.0.1).")
    static let port = Option<Int>(
        "--port", value: "PORT", help: "The port (default 2197; 0 picks a free one).",
        range: ArgumentRange.listeningPort)
    static let selfSigned = Option<String>(
        "--self-signed", value: "DIR", help: "Generate a CA and server certificate into DIR.")
    static let cert = Option<String>("--cert", value: "FILE", help: "Your own server certificate chain (PEM).")
    static let key = Option<String>("--key", value: "FILE", help: "The certificate's private key (PEM).")
    static let certKey = Option<String>("--cert-key", value: "FILE", help: "The same as --key.")
    static let authKey = Option<String>(
        "--auth-key", value: "FILE", help: "A provider key (.p8, or its public PEM) to accept.")
    static let keyID = Option<String>("--key-id", value: "ID", help: "The provider key's identifier.")
    static let teamID = Option<String>("--team-id", value: "ID", help: "The provider key's team.")
    static let topic = RepeatableOption<String>(
        "--topic", value: "BUNDLE", help: "Allow only these bundle ids for the key.")
    static let device = RepeatableOption<String>(
        "--device", value: "TOKEN:BUNDLE", help: "Register a device (then unknown tokens are refused).")
    static let unregistered = RepeatableOption<String>(
        "--unregistered", value: "TOKEN", help: "Answer 410 Unregistered for this token.")
    static let faults = Option<FaultPlan>(
        "--faults", value: "SPEC", help: "Faults to inject, for example 429=0.01,goaway-after=500."
    ) { text, option throws(UsageError) in
        do { return try FaultPlan(parsing: text) } catch { throw UsageError("\(option): \(error)") }
    }
    static let maxStreams = Option<Int>(
        "--max-streams", value: "N", help: "Concurrent streams after a valid token (default 1000).",
        range: 1...100_000)
    static let duration = Option<Duration>(
        "--duration", help: "Stop after this long (default: run until interrupted).", seconds: ArgumentRange.seconds)
    static let h2c = Flag("--h2c", help: "Cleartext HTTP/2 (prior knowledge) instead of TLS.")
    static let noTokenCheck = Flag(
        "--no-token-check", help: "Accept requests without provider tokens (certificate-style clients).")
    static let quiet = Flag("--quiet", help: "Do not print a line per request.")
    static let record = Option<String>(
        "--record", value: "FILE", help: "Append each accepted request (arrival time, headers, payload) to FILE.")
    static let clientCA = Option<String>(
        "--client-ca", value: "FILE",
        help: "Require client certificates this CA signed; their topics (UID, topic extension) decide.")
    static let certificateEnvironment = Option<String>(
        "--certificate-environment", value: "ENV",
        help: "sandbox or production: refuse client certificates made only for the other environment.")
    let arguments = ArgumentSpec(
        options: [
            Self.host, Self.port, Self.selfSigned, Self.cert, Self.key, Self.certKey, Self.authKey, Self.keyID,
            Self.teamID, Self.topic, Self.device, Self.unregistered, Self.faults, Self.maxStreams, Self.duration,
            Self.clientCA, Self.certificateEnvironment, Self.record,
        ],
        flags: [Self.h2c, Self.noTokenCheck, Self.quiet])

    static let generatedKeyID = "MOCKKEY001"
    static let generatedTeamID = "MOCKTEAM01"

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let security = try Self.security(arguments)
        let certificateEnvironment = try Self.certificateEnvironment(arguments)
        let devices = try Self.devices(arguments)
        let directory = Self.directory(arguments, security: security)
        // A directory of our own (not --self-signed DIR) holds a throwaway CA key and provider key: it
        // goes when the mock stops, however it stops.
        defer {
            if !arguments.isGiven(Self.selfSigned) { try? FileManager.default.removeItem(atPath: directory) }
        }
        let key = try Self.providerKey(arguments, directory: directory, console: console)
        var configuration = MockAPNsConfiguration(
            host: try arguments[Self.host] ?? "127.0.0.1",
            port: try arguments[Self.port] ?? 2197,
            security: security, keys: key.map { [$0] } ?? [], requiresProviderToken: !arguments[Self.noTokenCheck])
        if let faults = try arguments[Self.faults] { configuration.faults = faults }
        if let streams = try arguments[Self.maxStreams] {
            configuration.maximumConcurrentStreams = streams
        }
        configuration.recordingLimit = 0  // the command prints instead of keeping
        configuration.clientCertificateAuthority = try arguments[Self.clientCA]
        configuration.certificateEnvironment = certificateEnvironment
        var recording: RecordFile?
        if let path = try arguments[Self.record] { recording = try RecordFile(path: path) }
        let mock: MockAPNs
        do { mock = try await MockAPNs.start(configuration) } catch { throw CommandFailure("mock-apns: \(error)") }
        for (token, topic) in devices.registered { mock.registry.register(token: token, topic: topic) }
        for token in devices.unregistered { mock.registry.unregister(token: token) }
        console.print(Self.listeningLine(mock, key: key, directory: directory))
        if let recording { mock.forward { notification in recording.append(notification.recordLine) } }
        let quiet = arguments[Self.quiet]
        if !quiet {
            // The mock outlives its log: when the reader goes away (a closed pipe, a full disk), it stops
            // logging and keeps serving.
            let logging = Locked(true)
            mock.onAnswer { answer in
                guard logging.withLock({ $0 }) else { return }
                if !console.printIfPossible(answer.jsonLine) { logging.withLock { $0 = false } }
            }
        }
        let duration = try arguments[Self.duration]
        await StopSignal.wait(timeout: duration)
        await mock.stop()
        console.printError(Self.summary(mock.counters))
        return ExitStatus.success
    }

    private static func certificateEnvironment(_ arguments: ParsedArguments) throws
        -> MockAPNsConfiguration.CertificateEnvironment?
    {
        guard let name = try arguments[Self.certificateEnvironment] else { return nil }
        guard let environment = MockAPNsConfiguration.CertificateEnvironment(rawValue: name) else {
            throw UsageError("--certificate-environment takes sandbox or production, not '\(name)'")
        }
        guard arguments.isGiven(Self.clientCA) else {
            throw UsageError("--certificate-environment goes with --client-ca FILE (certificate-based senders)")
        }
        return environment
    }

    private static func security(_ arguments: ParsedArguments) throws(UsageError) -> MockAPNsConfiguration.Security {
        let chosen = [
            arguments[Self.h2c], arguments.isGiven(Self.selfSigned), arguments.isGiven(Self.cert),
        ]
        guard chosen.filter({ $0 }).count <= 1 else {
            throw UsageError("choose one of --h2c, --self-signed DIR and --cert FILE --key FILE")
        }
        if arguments[Self.h2c] { return .h2c }
        if let chain = try arguments[Self.cert] {
            let certificateKey = try arguments[Self.certKey]
            guard let key = try arguments[Self.key] ?? certificateKey else {
                throw UsageError("--cert needs --key FILE, the certificate's private key")
            }
            return .certificate(chainFile: chain, privateKeyFile: key)
        }
        let directory =
            try arguments[Self.selfSigned]
            ?? NSTemporaryDirectory() + "pushbutton-mock-apns-" + String(UUID().uuidString.prefix(8))
        return .selfSigned(directory: directory)
    }

    /// Where generated files go: the certificate directory, or a fresh temporary one (never the current
    /// directory, which a generated key would clutter).
    private static func directory(_ arguments: ParsedArguments, security: MockAPNsConfiguration.Security) -> String {
        if case .selfSigned(let directory) = security { return directory }
        return NSTemporaryDirectory() + "pushbutton-mock-apns-" + String(UUID().uuidString.prefix(8))
    }

    /// The key from --auth-key, or a generated one written next to the certificates.
    private static func providerKey(_ arguments: ParsedArguments, directory: String, console: Console) throws
        -> MockProviderKey?
    {
        if arguments[Self.noTokenCheck] { return nil }
        let topics = try arguments[Self.topic]
        let allowed = topics.isEmpty ? nil : Set(topics)
        if let path = try arguments[Self.authKey] {
            guard let keyID = try arguments[Self.keyID], let teamID = try arguments[Self.teamID] else {
                throw UsageError("--auth-key needs --key-id ID and --team-id ID")
            }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure("cannot read the provider key '\(path)'")
            }
            do {
                let publicKey =
                    text.contains("PRIVATE KEY")
                    ? try P256PublicKey(pem: try P256PrivateKey(pem: text).publicKeyPEM) : try P256PublicKey(pem: text)
                return MockProviderKey(keyID: keyID, teamID: teamID, publicKey: publicKey, topics: allowed)
            } catch {
                throw CommandFailure("'\(path)' is not a P-256 provider key: \(error)")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let key = try P256PrivateKey.generate()
            let path = directory + "/AuthKey_\(generatedKeyID).p8"
            try PrivateFile.write(key.pemRepresentation, to: path)
            return try MockProviderKey(
                keyID: generatedKeyID, teamID: generatedTeamID, privateKey: key, topics: allowed)
        } catch {
            throw CommandFailure("cannot create a provider key in '\(directory)': \(error)")
        }
    }

    /// The devices to register and the tokens to answer 410 for, checked before the server starts.
    private static func devices(_ arguments: ParsedArguments) throws(UsageError) -> (
        registered: [(String, String)], unregistered: [String]
    ) {
        var registered: [(String, String)] = []
        for device in try arguments[Self.device] {
            let parts = device.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, (try? DeviceToken(parts[0])) != nil else {
                throw UsageError("--device needs TOKEN:BUNDLE with a hexadecimal token, got '\(device)'")
            }
            registered.append((parts[0], parts[1]))
        }
        let unregistered = try arguments[Self.unregistered]
        for token in unregistered where (try? DeviceToken(token)) == nil {
            throw UsageError("--unregistered needs a hexadecimal device token")
        }
        return (registered, unregistered)
    }

    private static func listeningLine(_ mock: MockAPNs, key: MockProviderKey?, directory: String) -> String {
        var fields: [(String, String)] = [
            ("event", "\"listening\""), ("url", "\"\(mock.environment.origin)\""), ("host", "\"\(mock.host)\""),
            ("port", String(mock.port)),
        ]
        if let ca = mock.caFile { fields.append(("ca", "\"\(ca)\"")) }
        if let key {
            fields.append(("key_id", "\"\(key.keyID)\""))
            fields.append(("team_id", "\"\(key.teamID)\""))
            if key.keyID == generatedKeyID { fields.append(("auth_key", "\"\(directory)/AuthKey_\(key.keyID).p8\"")) }
        }
        return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    static func summary(_ counters: MockCounters) -> String {
        let reasons = counters.rejectedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let faults = counters.faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return "mock-apns: \(counters.connections) connection(s), \(counters.requests) request(s), "
            + "\(counters.accepted) accepted, \(counters.rejected) rejected"
            + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
            + (faults.isEmpty ? "" : "; faults: \(faults.joined(separator: ", "))")
            + (counters.duplicateAcceptances > 0 ? "; \(counters.duplicateAcceptances) duplicate acceptance(s)" : "")
            + (counters.retriesAfterFinalError > 0
                ? "; \(counters.retriesAfterFinalError) retry(ies) after a final error" : "")
    }
}
