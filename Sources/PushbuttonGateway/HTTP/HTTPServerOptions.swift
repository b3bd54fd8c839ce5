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
    /// The most connections kept open at once; at the cap the server stops accepting (new clients wait in the
    /// listen backlog) until one closes. `nil`: derived from the descriptor limit, which the server raises to
    /// its hard limit, less a reserve for the store, APNs and the webhook (``FileDescriptorLimit``).
    public var maximumConnections: Int?
    /// The most requests waiting for a handler thread; past it a request is answered `503` with `retry-after`
    /// at once instead of queueing (paths in ``reservedPaths`` excepted).
    public var maximumQueuedRequests: Int
    /// How many more requests a connection may cancel (an HTTP/2 stream reset, a client gone) than it had
    /// answered before the server shuts it down: the HTTP/2 rapid-reset defence (CVE-2023-44487).
    public var cancelledRequestAllowance: Int
    /// Paths answered on a thread of their own with a queue of their own (the liveness probe), so they are
    /// answered while the other handler threads are busy or their queue is full.
    public var reservedPaths: Set<String>

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
        requestTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60), handlerThreads: Int = 8,
        maximumConnections: Int? = nil, maximumQueuedRequests: Int = 1024, cancelledRequestAllowance: Int = 100,
        reservedPaths: Set<String> = ["/healthz"]
    ) {
        self.handlerThreads = handlerThreads
        self.maximumConnections = maximumConnections
        self.maximumQueuedRequests = maximumQueuedRequests
        self.cancelledRequestAllowance = cancelledRequestAllowance
        self.reservedPaths = reservedPaths
        self.host = host
        self.port = port
        self.tls = tls
        self.maximumBodyBytes = maximumBodyBytes
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }
}
