#if canImport(CCurl)
    import Foundation
    import Pushbutton

    /// An ``OutboxSender`` on libcurl, for Linux, where Foundation's `URLSession` spends most of a drain's CPU
    /// on its own machinery (about 0.7 ms per request against curl's 0.08 ms on the benchmark's machine).
    ///
    /// A fixed set of connections (one libcurl handle each, on a thread of its own) is kept alive between
    /// requests; give it as many as ``OutboxOptions/maximumConcurrentRequests``. As ``URLSessionSender``: TLS
    /// certificates are verified, redirects are never followed (their status is the result), only `http`
    /// and `https` URLs are sent, and a header value with a control character is refused, not sent.
    public struct CurlSender: OutboxSender {
        /// How long one request may take, connecting included.
        public let timeout: Duration
        /// How backends are reached.
        public let proxy: CurlProxy
        private let owner: CurlWorkers.Owner

        /// - Parameters:
        ///   - timeout: how long one request may take, connecting included.
        ///   - connections: how many requests can be open at once (each on a kept-alive connection).
        ///   - proxy: how to reach backends (``CurlProxy``): the environment's proxy by default.
        public init(timeout: Duration = .seconds(30), connections: Int = 8, proxy: CurlProxy = .environment) {
            self.timeout = timeout
            self.proxy = proxy
            let milliseconds = max(
                1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            owner = CurlWorkers.Owner(
                CurlWorkers(count: max(1, connections), timeoutMilliseconds: Int(milliseconds), proxy: proxy))
        }

        /// Sends `request` on a kept-alive connection and returns the HTTP status (a redirect's own status:
        /// it is not followed); throws for a refused header, a URL that is not `http` or `https`, and for
        /// network failures, which the outbox retries.
        public func send(_ request: OutgoingRequest) async throws -> Int {
            for (name, value) in request.headers {
                if let problem = HeaderField.problem(name: name, value: value) { throw Failure(problem) }
            }
            return try await owner.workers.perform(request)
        }

        /// Why a request was not answered: libcurl's message, with the URL.
        struct Failure: Error, CustomStringConvertible {
            var description: String
            init(_ description: String) { self.description = description }
        }
    }
#endif
