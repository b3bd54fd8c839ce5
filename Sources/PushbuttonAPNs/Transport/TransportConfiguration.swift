/// How a transport connects to APNs (or a stand-in).
public struct TransportConfiguration: Sendable, Hashable {
    public var environment: APNsEnvironment
    /// Connections to keep (APNs allows many; each serves about 1000 concurrent streams).
    public var connections: Int
    /// The most concurrent streams per connection this client opens (APNs' own limit applies too).
    public var maximumStreamsPerConnection: Int
    /// A TLS client certificate and key (PEM files), for certificate-based authentication.
    public var clientCertificate: (certificate: String, key: String)?
    /// A connection that received nothing for this long is sent a PING.
    public var pingInterval: Duration
    /// A PING unanswered for this long means the connection is dead: it is closed and replaced.
    public var pingTimeout: Duration

    public init(
        environment: APNsEnvironment, connections: Int = 1, maximumStreamsPerConnection: Int = 1000,
        clientCertificate: (certificate: String, key: String)? = nil, pingInterval: Duration = .seconds(60),
        pingTimeout: Duration = .seconds(10)
    ) {
        self.environment = environment
        self.connections = connections
        self.maximumStreamsPerConnection = maximumStreamsPerConnection
        self.clientCertificate = clientCertificate
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
    }

    public static func == (lhs: TransportConfiguration, rhs: TransportConfiguration) -> Bool {
        lhs.environment == rhs.environment && lhs.connections == rhs.connections
            && lhs.maximumStreamsPerConnection == rhs.maximumStreamsPerConnection
            && lhs.clientCertificate?.certificate == rhs.clientCertificate?.certificate
            && lhs.clientCertificate?.key == rhs.clientCertificate?.key && lhs.pingInterval == rhs.pingInterval
            && lhs.pingTimeout == rhs.pingTimeout
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(environment)
        hasher.combine(connections)
    }
}
