import Foundation
import Pushbutton
import PushbuttonAPNs

extension GatewayConfiguration {
    /// The result of reading a configuration file: the configuration when it has no errors, and every
    /// diagnostic, located in the text.
    public struct ParseResult: Sendable {
        public var configuration: GatewayConfiguration?
        public var diagnostics: [Diagnostic]
    }

    static let topKeys = [
        "$schema", "listen", "store", "apps", "webhook", "workers", "limits", "proxy", "shutdownSeconds",
    ]
    static let listenKeys = ["host", "port", "tls"]
    static let appKeys = [
        "id", "topic", "manifest", "environment", "auth", "secretKeys", "publishableKeys", "connections", "rateLimits",
    ]
    static let limitKeys =
        [
            "maxBodyBytes", "clientRequestTimeoutSeconds", "requestTimeoutSeconds", "idleTimeoutSeconds",
            "maxRecipients", "maxConnections", "maxWaitSeconds", "maxWaiters",
        ] + RateLimits.keys
    static let workerKeys = [
        "count", "batchSize", "leaseSeconds", "pollMilliseconds", "maxAttempts", "apnsTimeoutSeconds",
        "requestTimeoutSeconds",
    ]

    /// Reads a configuration file's bytes. Relative paths in it (manifest, keys, TLS files, the SQLite store,
    /// the webhook outbox) are taken relative to `baseDirectory`, the file's directory.
    public static func parse(_ bytes: [UInt8], baseDirectory: String) -> ParseResult {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(bytes, recordingLocations: true)
        } catch {
            return ParseResult(
                configuration: nil,
                diagnostics: [
                    Diagnostic(.error, .jsonSyntax, at: .root, error.message, location: error.location)
                ])
        }
        var diagnostics: [Diagnostic] = []
        let configuration = read(document.value, baseDirectory: baseDirectory, diagnostics: &diagnostics)
        let located = document.locating(diagnostics)
        return ParseResult(configuration: located.containsErrors ? nil : configuration, diagnostics: located)
    }

    static func resolve(_ path: String, _ base: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: base).appendingPathComponent(path).path
    }

    static func read(_ value: JSONValue, baseDirectory base: String, diagnostics: inout [Diagnostic])
        -> GatewayConfiguration?
    {
        guard let top = ConfigReader(value, at: .root, what: "the configuration", diagnostics: &diagnostics) else {
            return nil
        }
        top.unknownKeys(known: topKeys, diagnostics: &diagnostics)
        var listen = HTTPServerOptions()
        if let reader = top.object("listen", what: "'listen'", diagnostics: &diagnostics) {
            reader.unknownKeys(known: listenKeys, diagnostics: &diagnostics)
            listen.host = reader.string("host", diagnostics: &diagnostics) ?? listen.host
            if let host = reader.members["host"]?.stringValue, !isIPv4(host) {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: reader.path.appending("host"), "'\(host)' is not an IPv4 address",
                        hint: "use 127.0.0.1 for this machine only, 0.0.0.0 for every interface"))
            }
            listen.port = reader.integer("port", in: 0...65535, diagnostics: &diagnostics) ?? listen.port
            if let tls = reader.object("tls", what: "'tls'", diagnostics: &diagnostics) {
                tls.unknownKeys(known: ["certificate", "key"], diagnostics: &diagnostics)
                if let certificate = tls.string("certificate", required: true, diagnostics: &diagnostics),
                    let key = tls.string("key", required: true, diagnostics: &diagnostics)
                {
                    listen.tls = .init(certificate: resolve(certificate, base), key: resolve(key, base))
                }
            }
        }
        var maximumRecipients = 10_000
        var rateLimits = RateLimits()
        var waits = (seconds: 10, waiters: max(1, listen.handlerThreads / 2))
        if let limits = top.object("limits", what: "'limits'", diagnostics: &diagnostics) {
            limits.unknownKeys(known: limitKeys, diagnostics: &diagnostics)
            rateLimits = rateLimits.reading(limits, diagnostics: &diagnostics)
            listen.maximumBodyBytes =
                limits.integer("maxBodyBytes", in: 1024...(1 << 30), diagnostics: &diagnostics)
                ?? listen.maximumBodyBytes
            // How long a client may take to send a request (`requestTimeoutSeconds` until it was renamed: the
            // workers had a setting of that name for APNs).
            if let seconds = limits.integer(
                "clientRequestTimeoutSeconds", formerly: "requestTimeoutSeconds", in: 1...3600,
                diagnostics: &diagnostics)
            {
                listen.requestTimeout = .seconds(seconds)
            }
            if let seconds = limits.integer("idleTimeoutSeconds", in: 1...86400, diagnostics: &diagnostics) {
                listen.idleTimeout = .seconds(seconds)
            }
            listen.maximumConnections =
                limits.integer("maxConnections", in: 16...1_000_000, diagnostics: &diagnostics)
                ?? listen.maximumConnections
            maximumRecipients =
                limits.integer("maxRecipients", in: 1...1_000_000, diagnostics: &diagnostics) ?? maximumRecipients
            waits.seconds = limits.integer("maxWaitSeconds", in: 1...300, diagnostics: &diagnostics) ?? waits.seconds
            waits.waiters = limits.integer("maxWaiters", in: 1...1024, diagnostics: &diagnostics) ?? waits.waiters
        }
        var workers = WorkerOptions()
        if let reader = top.object("workers", what: "'workers'", diagnostics: &diagnostics) {
            reader.unknownKeys(known: workerKeys, diagnostics: &diagnostics)
            workers.count = reader.integer("count", in: 0...256, diagnostics: &diagnostics) ?? workers.count
            workers.batchSize =
                reader.integer("batchSize", in: 1...10_000, diagnostics: &diagnostics) ?? workers.batchSize
            if let seconds = reader.integer("leaseSeconds", in: 1...86400, diagnostics: &diagnostics) {
                workers.lease = .seconds(seconds)
            }
            if let milliseconds = reader.integer("pollMilliseconds", in: 1...60_000, diagnostics: &diagnostics) {
                workers.pollInterval = .milliseconds(milliseconds)
            }
            if let attempts = reader.integer("maxAttempts", in: 1...100, diagnostics: &diagnostics) {
                workers.retryPolicy.maximumAttempts = attempts
            }
            // How long one APNs request may take (renamed from `requestTimeoutSeconds`).
            if let seconds = reader.integer(
                "apnsTimeoutSeconds", formerly: "requestTimeoutSeconds", in: 1...600, diagnostics: &diagnostics)
            {
                workers.requestTimeout = .seconds(seconds)
            }
        }
        var store = "sqlite:pushbutton-gateway.db"
        if let text = top.string("store", diagnostics: &diagnostics) {
            if text.hasPrefix("sqlite:") {
                store = "sqlite:" + resolve(String(text.dropFirst("sqlite:".count)), base)
            } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
                store = text
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: .root.appending("store"),
                        "the store must be sqlite:PATH or postgres://…",
                        hint: "for example sqlite:gateway.db or postgres://pushbutton@db.internal:5432/pushbutton"))
            }
        }
        var webhook: WebhookConfiguration?
        if let reader = top.object("webhook", what: "'webhook'", diagnostics: &diagnostics) {
            reader.unknownKeys(known: ["url", "secret", "outbox", "events"], diagnostics: &diagnostics)
            let url = reader.string("url", required: true, diagnostics: &diagnostics)
            if let url, URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) != true {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: reader.path.appending("url"), "the webhook URL must be http(s)",
                        hint: "for example https://backend.example.com/pushbutton-events"))
            }
            let secret = reader.string("secret", required: true, diagnostics: &diagnostics)
            if let secret, secret.utf8.count < 16 {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: reader.path.appending("secret"),
                        "the webhook secret is too short to sign with (\(secret.utf8.count) bytes)",
                        hint: "use at least 16 random bytes, e.g. openssl rand -hex 32"))
            }
            if let outbox = reader.string("outbox", diagnostics: &diagnostics) {
                diagnostics.append(
                    Diagnostic(
                        .warning, .unknownValue, at: reader.path.appending("outbox"),
                        "'outbox' is no longer used: the webhook's events wait in the store and any process posts them",
                        hint:
                            "remove it; post what an old outbox still holds with pushbutton outbox drain \(outbox) --endpoint URL"
                    ))
            }
            let events = EventStreamConfiguration.read(reader, diagnostics: &diagnostics)
            if let url, let secret { webhook = WebhookConfiguration(url: url, secret: secret, events: events) }
        }
        var apps: [AppConfiguration] = []
        let appsPath = JSONPath.root.appending("apps")
        if let array = top.members["apps"]?.arrayValue, !array.isEmpty {
            for (index, element) in array.enumerated() {
                if let app = readApp(
                    element, at: appsPath.appending(index), base: base, rateLimits: rateLimits,
                    diagnostics: &diagnostics)
                {
                    if apps.contains(where: { $0.id == app.id }) {
                        diagnostics.append(
                            Diagnostic(
                                .error, .duplicateKey, at: appsPath.appending(index).appending("id"),
                                "two apps are named '\(app.id)'", hint: "give each app its own id"))
                    }
                    apps.append(app)
                }
            }
        } else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: appsPath, "'apps' is required: an array with at least one app",
                    hint: #"for example "apps": [{"id": "chat", "topic": "com.example.chat", …}], "#
                        + "or PUSHBUTTON_APP_ID, PUSHBUTTON_APP_TOPIC, … in the environment"))
        }
        let shutdownSeconds = top.integer("shutdownSeconds", in: 1...3600, diagnostics: &diagnostics) ?? 30
        var configuration = GatewayConfiguration(
            listen: listen, store: store, apps: apps, webhook: webhook, workers: workers,
            maximumRecipients: maximumRecipients, proxy: readProxy(top, diagnostics: &diagnostics),
            shutdownGrace: .seconds(shutdownSeconds))
        configuration.maximumWaitSeconds = waits.seconds
        configuration.maximumWaiters = waits.waiters
        return configuration
    }

    /// `"proxy"`: a URL, `false` for none whatever the environment says, absent for the environment's.
    private static func readProxy(_ top: ConfigReader, diagnostics: inout [Diagnostic]) -> APNsProxySetting {
        guard let value = top.members["proxy"] else { return .environment }
        let path = top.path.appending("proxy")
        if value.boolValue == false { return .direct }
        guard let url = value.stringValue, !url.isEmpty else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path,
                    "'proxy' must be a proxy URL or false, not \(value.typeDescription)",
                    hint: #"for example "proxy": "http://proxy.internal:3128", or false to ignore HTTPS_PROXY"#))
            return .environment
        }
        do {
            return .through(try HTTPProxy(url: url))
        } catch {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownValue, at: path, error.message,
                    hint: "give http://[user:password@]host:port (an HTTP proxy that allows CONNECT)"))
            return .environment
        }
    }

    private static func readApp(
        _ value: JSONValue, at path: JSONPath, base: String, rateLimits: RateLimits, diagnostics: inout [Diagnostic]
    ) -> AppConfiguration? {
        guard let app = ConfigReader(value, at: path, what: "an app", diagnostics: &diagnostics) else { return nil }
        app.unknownKeys(known: appKeys + AppConfiguration.sendingKeys, diagnostics: &diagnostics)
        let id = app.string("id", required: true, diagnostics: &diagnostics)
        if let id, id.contains(where: { !($0.isLetter || $0.isNumber || "-_.".contains($0)) }) {
            diagnostics.append(
                Diagnostic(
                    .error, .identifierWhitespace, at: path.appending("id"),
                    "the app id '\(id)' has characters a URL path cannot carry as is",
                    hint: "use letters, digits, '-', '_' and '.'"))
        }
        let topic = app.string("topic", required: true, diagnostics: &diagnostics)
        let manifest = app.string("manifest", required: true, diagnostics: &diagnostics).map { resolve($0, base) }
        if let manifest, !FileManager.default.isReadableFile(atPath: manifest) {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: path.appending("manifest"), "cannot read the manifest '\(manifest)'",
                    hint: "give a path relative to the configuration file"))
        }
        let environment = readEnvironment(app, base: base, diagnostics: &diagnostics)
        var credentials: AppConfiguration.Credentials?
        if let auth = app.object("auth", what: "'auth'", diagnostics: &diagnostics) {
            auth.unknownKeys(
                known: ["key", "keyId", "teamId", "certificate", "certificateKey", "pkcs12", "passphraseFile"],
                diagnostics: &diagnostics)
            let kinds = ["key", "certificate", "pkcs12"].filter { auth.members[$0] != nil }
            if kinds.count > 1 {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: auth.path,
                        "'auth' names \(kinds.map { "'\($0)'" }.joined(separator: " and ")): one kind of credentials",
                        hint: "a provider key (key, keyId, teamId), a PEM certificate (certificate, certificateKey) "
                            + "or a PKCS#12 bundle (pkcs12, passphraseFile)"))
            }
            if auth.members["passphraseFile"] != nil && auth.members["pkcs12"] == nil {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: auth.path.appending("passphraseFile"),
                        "'passphraseFile' is the pass phrase of a PKCS#12 bundle, and 'auth' names none",
                        hint: #"add "pkcs12": "push.p12", or remove 'passphraseFile'"#))
            }
            if auth.members["pkcs12"] != nil {
                if let bundle = auth.string("pkcs12", required: true, diagnostics: &diagnostics) {
                    let passphrase = auth.string("passphraseFile", diagnostics: &diagnostics).map { resolve($0, base) }
                    credentials = .pkcs12(file: resolve(bundle, base), passphraseFile: passphrase)
                }
            } else if auth.members["certificate"] != nil {
                if let certificate = auth.string("certificate", required: true, diagnostics: &diagnostics),
                    let key = auth.string("certificateKey", required: true, diagnostics: &diagnostics)
                {
                    credentials = .certificate(certificateFile: resolve(certificate, base), keyFile: resolve(key, base))
                }
            } else if let key = auth.string("key", required: true, diagnostics: &diagnostics),
                let keyID = auth.string("keyId", required: true, diagnostics: &diagnostics),
                let teamID = auth.string("teamId", required: true, diagnostics: &diagnostics)
            {
                credentials = .token(keyFile: resolve(key, base), keyID: keyID, teamID: teamID)
            }
        } else {
            app.missing(
                "auth", "an object", &diagnostics,
                hint:
                    #"token: {"key": "AuthKey_ABC.p8", "keyId": "ABC", "teamId": "TEAM"}; certificate: {"certificate", "certificateKey"} or {"pkcs12", "passphraseFile"}"#
            )
        }
        let secret = readDigests(app, "secretKeys", required: true, diagnostics: &diagnostics)
        let publishable = readDigests(app, "publishableKeys", required: false, diagnostics: &diagnostics)
        let connections = app.integer("connections", in: 1...64, diagnostics: &diagnostics) ?? 1
        var limits = rateLimits
        if let reader = app.object("rateLimits", what: "'rateLimits'", diagnostics: &diagnostics) {
            reader.unknownKeys(known: RateLimits.keys, diagnostics: &diagnostics)
            limits = limits.reading(reader, diagnostics: &diagnostics)
        }
        let sending = AppConfiguration.readSending(app, diagnostics: &diagnostics)
        let cap = AppConfiguration.readFrequencyCap(app, diagnostics: &diagnostics)
        guard let id, let topic, let manifest, let environment, let credentials else { return nil }
        var configuration = AppConfiguration(
            id: id, topic: topic, manifestPath: manifest, credentials: credentials, environment: environment,
            secretKeyDigests: secret, publishableKeyDigests: publishable, connections: connections)
        configuration.rateLimits = limits
        (configuration.defaultTimeZone, configuration.throttlePerMinute, configuration.quietHours) = sending
        configuration.frequencyCap = cap
        return configuration
    }

    private static func readEnvironment(_ app: ConfigReader, base: String, diagnostics: inout [Diagnostic])
        -> APNsEnvironment?
    {
        guard let value = app.members["environment"] else { return .production }
        if let name = value.stringValue {
            switch name {
            case "production": return .production
            case "sandbox", "development": return .sandbox
            default:
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: app.path.appending("environment"),
                        "'\(name)' is not an APNs environment",
                        hint: #"use "production", "sandbox" or a stand-in {"host", "port", "ca", "h2c"}"#))
                return nil
            }
        }
        guard let reader = app.object("environment", what: "'environment'", diagnostics: &diagnostics) else {
            return nil
        }
        reader.unknownKeys(known: ["host", "port", "ca", "h2c"], diagnostics: &diagnostics)
        guard let host = reader.string("host", required: true, diagnostics: &diagnostics) else { return nil }
        return APNsEnvironment(
            host: host, port: reader.integer("port", in: 1...65535, diagnostics: &diagnostics) ?? 443,
            caFile: reader.string("ca", diagnostics: &diagnostics).map { resolve($0, base) },
            cleartext: reader.bool("h2c", diagnostics: &diagnostics) ?? false)
    }

    /// API keys are configured as `sha256:<64 hex digits>` (``APIKey/digestText(of:)`` prints one): the
    /// configuration never holds a key itself.
    private static func readDigests(_ app: ConfigReader, _ key: String, required: Bool, diagnostics: inout [Diagnostic])
        -> [[UInt8]]
    {
        guard let strings = app.strings(key, diagnostics: &diagnostics) else {
            if required {
                app.missing(
                    key, "an array of key digests", &diagnostics,
                    hint: "pushbutton serve --hash-key KEY prints the sha256:… form of a key")
            }
            return []
        }
        var digests: [[UInt8]] = []
        for (index, text) in strings.enumerated() {
            guard let digest = APIKey.parseDigest(text) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: app.path.appending(key).appending(index),
                        "an API key is configured as its digest, sha256: and 64 hex digits",
                        hint: "pushbutton serve --hash-key KEY prints it; never put the key itself here"))
                continue
            }
            digests.append(digest)
        }
        if required && digests.isEmpty && strings.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: app.path.appending(key), "'\(key)' needs at least one key digest",
                    hint: "pushbutton serve --hash-key KEY prints the sha256:… form of a key"))
        }
        return digests
    }

    private static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
