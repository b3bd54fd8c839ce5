import Foundation

/// How a ``MockAPNs`` listens and behaves.
public struct MockAPNsConfiguration: Sendable {
    /// How clients connect.
    public enum Security: Sendable, Hashable {
        /// TLS with ALPN `h2` and a certificate authority generated into `directory` (its `ca.pem` is
        /// what clients trust).
        case selfSigned(directory: String)
        /// TLS with your own certificate chain and key (PEM files).
        case certificate(chainFile: String, privateKeyFile: String)
        /// Cleartext HTTP/2 with prior knowledge, for clients that cannot do TLS.
        case h2c
    }

    /// The address to bind: 127.0.0.1 unless you need the mock reachable from elsewhere.
    public var host: String
    /// 0 picks a free port; ``MockAPNs/port`` reports it.
    public var port: Int
    /// TLS with a generated CA, TLS with your certificate, or cleartext h2c.
    public var security: Security
    /// The provider keys whose tokens are accepted (more can be registered later).
    public var keys: [MockProviderKey]
    /// Whether requests must carry a valid provider token (false: clients authenticate by certificate).
    public var requiresProviderToken: Bool
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` on a new connection; APNs starts at 1.
    public var initialMaximumConcurrentStreams: Int
    /// The limit after the first request with a valid token; APNs raises it to about 1000.
    public var maximumConcurrentStreams: Int
    /// Which failures to inject and how often (none by default).
    public var faults: FaultPlan
    /// How many accepted notifications are kept for inspection (counters go on beyond it).
    public var recordingLimit: Int
    /// How many `apns-id`s are followed to count duplicate acceptances and retries after a final error
    /// (about 50 bytes each).
    public var trackingLimit: Int
    /// The shortest time between two provider tokens on one connection (APNs: 20 minutes).
    public var tokenUpdateInterval: TimeInterval
    /// The mock's clock, for token ages; tests inject their own.
    public var now: @Sendable () -> Date
    /// How long a client has to finish the TLS handshake (or, in h2c, to send its first bytes) before its
    /// connection is closed: half-open handshakes cannot hold descriptors forever.
    public var handshakeTimeout: Duration = .seconds(10)
    /// How long a connection may stay open without a byte from the client and without a stream in
    /// progress before it is closed, as APNs closes idle connections (clients' PINGs keep it open).
    public var idleTimeout: Duration = .seconds(600)
    /// The most connections served at once. At the limit, a new connection takes the place of the one idle
    /// the longest, or is closed at once when every connection is busy.
    public var maximumConnections: Int = 1000
    /// A CA file (PEM): when set, every client must present a certificate it signed (the TLS handshake fails
    /// otherwise), and the topics a connection may push to are the certificate's (its subject UID and Apple's
    /// topic extension); a topic it does not cover is answered 400 `TopicDisallowed`. Requests on such a
    /// connection need no provider token. Only with TLS.
    public var clientCertificateAuthority: String?
    /// The APNs environment the mock plays for client certificates: a certificate whose Apple extensions
    /// name only the other one (a development certificate, OID 1.2.840.113635.100.6.3.1, against
    /// production, …6.3.2) is answered 403 `BadCertificateEnvironment`, as APNs answers it. Nil (the
    /// default) accepts either; certificates naming both ("Sandbox & Production") or neither always pass.
    public var certificateEnvironment: CertificateEnvironment?
    /// The most broadcast channels one bundle id may have (APNs: 10,000 per environment); a create past it
    /// is answered 400 CannotCreateChannelConfig.
    public var channelsPerBundleID: Int = 10_000

    /// A mock on 127.0.0.1 and a free port that behaves as APNs does: provider tokens required, 1 stream until
    /// the first valid token and 1000 after, no faults, tokens no closer than 20 minutes apart.
    public init(
        host: String = "127.0.0.1", port: Int = 0, security: Security, keys: [MockProviderKey] = [],
        requiresProviderToken: Bool = true, initialMaximumConcurrentStreams: Int = 1,
        maximumConcurrentStreams: Int = 1000, faults: FaultPlan = .none, recordingLimit: Int = 100_000,
        trackingLimit: Int = 1_000_000,
        tokenUpdateInterval: TimeInterval = 20 * 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.keys = keys
        self.requiresProviderToken = requiresProviderToken
        self.initialMaximumConcurrentStreams = initialMaximumConcurrentStreams
        self.maximumConcurrentStreams = maximumConcurrentStreams
        self.faults = faults
        self.recordingLimit = recordingLimit
        self.trackingLimit = trackingLimit
        self.tokenUpdateInterval = tokenUpdateInterval
        self.now = now
    }
}
