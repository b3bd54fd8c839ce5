/// Where and how the HTTP server listens.
public struct HTTPServerOptions: Sendable, Hashable {
    /// An IPv4 address to bind.
    public var host: String
    /// The port; 0 picks a free one (read ``HTTPServer/port``).
    public var port: Int
    /// A PEM certificate chain and its key: TLS with ALPN `h2` and `http/1.1`. Without them the server speaks
    /// cleartext HTTP/1.1 and HTTP/2 with prior knowledge (h2c).
    public var tls: TLSFiles?
    /// Larger request bodies get `413` from the server library before any route sees them.
    public var maximumBodyBytes: Int
    /// How long an HTTP/1.1 client may take to send a request (headers and body) and a TLS handshake may take.
    public var requestTimeout: Duration
    /// How long an idle HTTP/2 connection is kept.
    public var idleTimeout: Duration
    /// Threads that run handlers (which may block on the store) at the same time.
    public var handlerThreads: Int

    public struct TLSFiles: Sendable, Hashable {
        public var certificate: String
        public var key: String
        public init(certificate: String, key: String) {
            self.certificate = certificate
            self.key = key
        }
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, tls: TLSFiles? = nil, maximumBodyBytes: Int = 1 << 20,
        requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), handlerThreads: Int = 8
    ) {
        self.handlerThreads = handlerThreads
        self.host = host
        self.port = port
        self.tls = tls
        self.maximumBodyBytes = maximumBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }
}
