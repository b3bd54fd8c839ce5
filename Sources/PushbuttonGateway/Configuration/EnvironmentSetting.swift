/// One `PUSHBUTTON_…` environment variable and the configuration member(s) it sets.
public struct EnvironmentSetting: Sendable {
    /// How the variable's text becomes a JSON value.
    public enum Kind: Sendable {
        /// Taken as it is.
        case string
        /// A decimal integer (anything else stays a string, which the reader reports as mistyped).
        case integer
        /// `true`/`false` (also `1`/`0`, `yes`/`no`).
        case bool
        /// Comma-separated strings.
        case list
        /// A file's path, relative to the current directory.
        case path
        /// `sqlite:PATH` (relative to the current directory) or a PostgreSQL URL.
        case store
        /// A proxy URL, or `false`/`none` for none.
        case proxy
        /// `HOST:PORT`, `:PORT` or `PORT`: `listen.host` and `listen.port`.
        case listen
    }

    /// The variable's name.
    public var name: String
    /// Where it goes, below the configuration's root or (for `PUSHBUTTON_APP_…`) below the app it describes.
    public var path: [String]
    /// How its text is read.
    public var kind: Kind
    /// Shown as `***` by `serve --print-config`.
    public var isSecret: Bool
    /// Also read from the file named by `NAME_FILE` (how Docker and Kubernetes mount secrets).
    public var acceptsFile: Bool {
        switch kind {
        case .path, .listen: false
        default: true
        }
    }
    /// One of the `PUSHBUTTON_APP_…` variables.
    public var isApp: Bool { name.hasPrefix("PUSHBUTTON_APP_") }

    init(_ name: String, _ path: [String], _ kind: Kind, secret: Bool = false) {
        self.name = name
        self.path = path
        self.kind = kind
        self.isSecret = secret
    }

    /// Every variable `pushbutton serve` reads, in the order they are applied (a later one wins over an earlier
    /// one that sets the same member: `PUSHBUTTON_APP_APNS_HOST` over `PUSHBUTTON_APP_ENVIRONMENT`).
    public static let all: [EnvironmentSetting] = [
        EnvironmentSetting("PUSHBUTTON_LISTEN", ["listen"], .listen),
        EnvironmentSetting("PUSHBUTTON_TLS_CERTIFICATE_FILE", ["listen", "tls", "certificate"], .path),
        EnvironmentSetting("PUSHBUTTON_TLS_KEY_FILE", ["listen", "tls", "key"], .path),
        EnvironmentSetting("PUSHBUTTON_STORE", ["store"], .store, secret: true),
        EnvironmentSetting("PUSHBUTTON_PROXY", ["proxy"], .proxy, secret: true),
        EnvironmentSetting("PUSHBUTTON_SHUTDOWN_SECONDS", ["shutdownSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_WORKERS", ["workers", "count"], .integer),
        EnvironmentSetting("PUSHBUTTON_BATCH_SIZE", ["workers", "batchSize"], .integer),
        EnvironmentSetting("PUSHBUTTON_LEASE_SECONDS", ["workers", "leaseSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_POLL_MILLISECONDS", ["workers", "pollMilliseconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_MAX_ATTEMPTS", ["workers", "maxAttempts"], .integer),
        EnvironmentSetting("PUSHBUTTON_APNS_TIMEOUT_SECONDS", ["workers", "apnsTimeoutSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_MAX_BODY_BYTES", ["limits", "maxBodyBytes"], .integer),
        // The old name of the next one: set through the old key, so it gets the same deprecation warning.
        EnvironmentSetting("PUSHBUTTON_REQUEST_TIMEOUT_SECONDS", ["limits", "requestTimeoutSeconds"], .integer),
        EnvironmentSetting(
            "PUSHBUTTON_CLIENT_REQUEST_TIMEOUT_SECONDS", ["limits", "clientRequestTimeoutSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_IDLE_TIMEOUT_SECONDS", ["limits", "idleTimeoutSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_MAX_RECIPIENTS", ["limits", "maxRecipients"], .integer),
        EnvironmentSetting("PUSHBUTTON_MAX_WAIT_SECONDS", ["limits", "maxWaitSeconds"], .integer),
        EnvironmentSetting("PUSHBUTTON_MAX_WAITERS", ["limits", "maxWaiters"], .integer),
        EnvironmentSetting("PUSHBUTTON_WEBHOOK_URL", ["webhook", "url"], .string),
        EnvironmentSetting("PUSHBUTTON_WEBHOOK_SECRET", ["webhook", "secret"], .string, secret: true),
        EnvironmentSetting("PUSHBUTTON_WEBHOOK_OUTBOX", ["webhook", "outbox"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_ID", ["id"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_TOPIC", ["topic"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_MANIFEST_FILE", ["manifest"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_ENVIRONMENT", ["environment"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_APNS_HOST", ["environment", "host"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_APNS_PORT", ["environment", "port"], .integer),
        EnvironmentSetting("PUSHBUTTON_APP_APNS_CA_FILE", ["environment", "ca"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_APNS_H2C", ["environment", "h2c"], .bool),
        EnvironmentSetting("PUSHBUTTON_APP_KEY_FILE", ["auth", "key"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_KEY_ID", ["auth", "keyId"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_TEAM_ID", ["auth", "teamId"], .string),
        EnvironmentSetting("PUSHBUTTON_APP_CERTIFICATE_FILE", ["auth", "certificate"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_CERTIFICATE_KEY_FILE", ["auth", "certificateKey"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_PKCS12_FILE", ["auth", "pkcs12"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_PASSPHRASE_FILE", ["auth", "passphraseFile"], .path),
        EnvironmentSetting("PUSHBUTTON_APP_SECRET_KEYS", ["secretKeys"], .list),
        EnvironmentSetting("PUSHBUTTON_APP_PUBLISHABLE_KEYS", ["publishableKeys"], .list),
        EnvironmentSetting("PUSHBUTTON_APP_CONNECTIONS", ["connections"], .integer),
    ]
}
