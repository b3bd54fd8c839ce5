/// How a transport connects to APNs (or a stand-in).
public struct TransportConfiguration: Sendable, Hashable {
    /// Where to connect: production, sandbox or a local stand-in.
    public var environment: APNsEnvironment
    /// Connections to keep (APNs allows many; each serves about 1000 concurrent streams).
    public var connections: Int
    /// The most concurrent streams per connection this client opens (APNs' own limit applies too).
    public var maximumStreamsPerConnection: Int
    /// A TLS client certificate and key (PEM files), for certificate-based authentication.
    public var clientCertificate: (certificate: String, key: String)?
    /// A TLS client certificate in any form ``ClientCertificate`` reads (PEM or PKCS#12); it takes precedence
    /// over ``clientCertificate``.
    public var certificate: ClientCertificate?
    /// A connection that received nothing for this long is sent a PING.
    public var pingInterval: Duration
    /// A PING unanswered for this long means the connection is dead: it is closed and replaced.
    public var pingTimeout: Duration
    /// An HTTP proxy to tunnel through (CONNECT), unless its bypass list names the environment's host.
    public var proxy: HTTPProxy?

    /// One connection of up to 1000 streams, PINGs after 60 s of silence, no certificate and no proxy by default.
    public init(
        environment: APNsEnvironment, connections: Int = 1, maximumStreamsPerConnection: Int = 1000,
        clientCertificate: (certificate: String, key: String)? = nil, pingInterval: Duration = .seconds(60),
        pingTimeout: Duration = .seconds(10), proxy: HTTPProxy? = nil, certificate: ClientCertificate? = nil
    ) {
        self.environment = environment
        self.connections = connections
        self.maximumStreamsPerConnection = maximumStreamsPerConnection
        self.clientCertificate = clientCertificate
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.proxy = proxy
        self.certificate = certificate
    }

    /// The client certificate the transport presents, whichever way it was given.
    var effectiveCertificate: ClientCertificate? {
        certificate ?? clientCertificate.map { .pem(certificate: $0.certificate, key: $0.key) }
    }

    /// Equal when every setting is (certificates compared by their text).
    public static func == (lhs: TransportConfiguration, rhs: TransportConfiguration) -> Bool {
        lhs.environment == rhs.environment && lhs.connections == rhs.connections
            && lhs.maximumStreamsPerConnection == rhs.maximumStreamsPerConnection
            && lhs.clientCertificate?.certificate == rhs.clientCertificate?.certificate
            && lhs.clientCertificate?.key == rhs.clientCertificate?.key && lhs.pingInterval == rhs.pingInterval
            && lhs.pingTimeout == rhs.pingTimeout && lhs.proxy == rhs.proxy
            && lhs.certificate == rhs.certificate
    }

    /// Hashes the environment and connection count (enough to spread configurations; `==` decides).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(environment)
        hasher.combine(connections)
    }
}
