import Foundation
import PushbuttonAPNs
import PushbuttonStore

/// What `pushbutton serve --config FILE` reads: where to listen, the store, the apps and their keys, the
/// webhook and the limits. Read it with ``GatewayConfiguration/parse(_:baseDirectory:)``.
public struct GatewayConfiguration: Sendable {
    public var listen: HTTPServerOptions
    /// `sqlite:PATH` (the default, one process) or `postgres://…` (several processes sharing one queue).
    public var store: String
    public var apps: [AppConfiguration]
    public var webhook: WebhookConfiguration?
    public var workers: WorkerOptions
    /// Recipients one request may name or resolve to (tokens, a user's or a tag's devices, a campaign page).
    public var maximumRecipients: Int
    /// How the apps' connections reach APNs: the environment's proxy by default, a given one, or directly.
    public var proxy: APNsProxySetting
    /// How long a stop (SIGTERM) may take: in-flight requests and batches finish within it, then the
    /// process stops anyway (the leases left expire).
    public var shutdownGrace: Duration
    /// The most a notification request may ask to wait for its outcomes (`"wait_seconds"`,
    /// `limits.maxWaitSeconds`).
    public var maximumWaitSeconds = 10
    /// The most requests waiting for outcomes at once (`limits.maxWaiters`): each holds a handler thread, so
    /// by default half of them; past it such a request is refused with `503` before anything is queued.
    public var maximumWaiters = 4

    public init(
        listen: HTTPServerOptions = HTTPServerOptions(), store: String = "sqlite:pushbutton-gateway.db",
        apps: [AppConfiguration], webhook: WebhookConfiguration? = nil, workers: WorkerOptions = WorkerOptions(),
        maximumRecipients: Int = 10_000, proxy: APNsProxySetting = .environment,
        shutdownGrace: Duration = .seconds(30)
    ) {
        self.shutdownGrace = shutdownGrace
        self.listen = listen
        self.store = store
        self.apps = apps
        self.webhook = webhook
        self.workers = workers
        self.maximumRecipients = maximumRecipients
        self.proxy = proxy
    }

    public func app(_ id: String) -> AppConfiguration? { apps.first { $0.id == id } }
}

/// One app: its bundle id, manifest, APNs credentials and environment, and its API keys (hashed).
public struct AppConfiguration: Sendable {
    public enum Credentials: Sendable {
        /// Token authentication: a `.p8` key.
        case token(keyFile: String, keyID: String, teamID: String)
        /// Certificate authentication: a PEM certificate and its key.
        case certificate(certificateFile: String, keyFile: String)
        /// Certificate authentication with a PKCS#12 bundle (`.p12`, as Keychain Access exports one); its pass
        /// phrase is read from `passphraseFile` (nil for a bundle without one), never from the configuration.
        case pkcs12(file: String, passphraseFile: String?)
    }

    public var id: String
    /// `apns-topic`: the bundle id.
    public var topic: String
    /// The manifest notifications are validated against.
    public var manifestPath: String
    public var credentials: Credentials
    public var environment: APNsEnvironment
    /// SHA-256 digests of the secret API keys (for everything but device registration).
    public var secretKeyDigests: [[UInt8]]
    /// SHA-256 digests of the publishable keys (device registration only).
    public var publishableKeyDigests: [[UInt8]]
    /// HTTP/2 connections to APNs for this app.
    public var connections: Int
    /// Requests a minute its keys, and a device token with its publishable key, may make.
    public var rateLimits = RateLimits()
    /// The IANA time zone of a device that registered none, for local-time sends (`default_time_zone`;
    /// UTC when unset).
    public var defaultTimeZone: String?
    /// The rate of the app's campaigns that give none (`throttle_per_minute`; unlimited when unset).
    public var throttlePerMinute: Int?
    /// When campaigns do not reach a device, in its local time (`quiet_hours`; none when unset).
    var quietHours: QuietHours?
    /// At most so many pushes to a device in a sliding window, for campaigns (`frequency_cap`; none when unset).
    public var frequencyCap: FrequencyCap?

    public init(
        id: String, topic: String, manifestPath: String, credentials: Credentials, environment: APNsEnvironment,
        secretKeyDigests: [[UInt8]], publishableKeyDigests: [[UInt8]], connections: Int = 1
    ) {
        self.id = id
        self.topic = topic
        self.manifestPath = manifestPath
        self.credentials = credentials
        self.environment = environment
        self.secretKeyDigests = secretKeyDigests
        self.publishableKeyDigests = publishableKeyDigests
        self.connections = connections
    }
}

/// Where dead tokens and final failures are reported: an HMAC-signed POST of each event queued in the store,
/// posted by whichever gateway process leases it and retried until acknowledged.
public struct WebhookConfiguration: Sendable {
    public var url: String
    public var secret: String
    /// The event stream (`"events"`): off when nil.
    public var events: EventStreamConfiguration?

    public init(url: String, secret: String, events: EventStreamConfiguration? = nil) {
        self.url = url
        self.secret = secret
        self.events = events
    }
}

/// How the in-process workers lease and send.
public struct WorkerOptions: Sendable, Hashable {
    /// Concurrent workers, each leasing a batch at a time.
    public var count: Int
    /// Recipients leased per batch.
    public var batchSize: Int
    /// How long a lease lasts; a worker that dies leaves its recipients due again after this.
    public var lease: Duration
    /// How long an idle worker waits before looking again when nothing wakes it: only the fallback for a lost
    /// wake-up, since a committed intake wakes the workers at once (``GatewayStore/observeCommittedWork(_:)``).
    public var pollInterval: Duration
    public var retryPolicy: RetryPolicy
    /// One APNs request's time limit.
    public var requestTimeout: Duration

    public init(
        count: Int = 2, batchSize: Int = 500, lease: Duration = .seconds(60),
        pollInterval: Duration = .milliseconds(2000),
        retryPolicy: RetryPolicy = RetryPolicy(), requestTimeout: Duration = .seconds(10)
    ) {
        self.count = count
        self.batchSize = batchSize
        self.lease = lease
        self.pollInterval = pollInterval
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
    }
}
