#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import Pushbutton
    import PushbuttonSupport
    import Synchronization

    /// HTTP/2 to APNs on libnghttp2 and OpenSSL, one event-loop thread per connection (the default transport
    /// on Linux).
    ///
    /// Requests wait in a queue until a connection has a free stream: each connection honours the server's
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` (one until the server's first SETTINGS, as APNs starts) and
    /// ``TransportConfiguration/maximumStreamsPerConnection``. Streams the server did not process (refused,
    /// or above a GOAWAY's last stream) move to another connection without costing the client a retry;
    /// streams lost with a connection fail with a transport error, which the client retries with the same
    /// `apns-id`. A connection that went away is replaced (with backoff after failed attempts), an idle one
    /// is checked with PINGs, and a request past its timeout is cancelled. Certificate verification is
    /// always on. SIGPIPE is ignored from the first transport on (OpenSSL writes without `MSG_NOSIGNAL`).
    public final class NGHTTP2Transport: APNsTransport, NotificationTransport, Sendable {
        /// The environment, connection count, stream limits, certificates, PINGs and proxy it was made with.
        public let configuration: TransportConfiguration
        /// One event loop (one thread) per connection, so a machine with more cores sends on all of them;
        /// requests are spread over the loops in turn.
        let loops: [ClientLoop]
        private let nextLoop = Atomic<UInt>(0)

        /// Connects as `configuration` says, measuring deadlines on the continuous clock.
        ///
        /// - Throws: ``APNsError`` when TLS cannot be set up (a CA file or client certificate that does not load).
        public convenience init(_ configuration: TransportConfiguration) throws(APNsError) {
            try self.init(configuration, clock: .continuous)
        }

        /// As the public initializer, with the clock the request deadlines, PINGs and reconnection backoffs
        /// are measured on (a `ManualClock` in tests).
        package init(_ configuration: TransportConfiguration, clock: AnyDurationClock) throws(APNsError) {
            signal(SIGPIPE, SIG_IGN)
            self.configuration = configuration
            var perLoop = configuration
            perLoop.connections = 1
            var loops: [ClientLoop] = []
            for _ in 0..<max(1, configuration.connections) {
                loops.append(try ClientLoop(configuration: perLoop, clock: clock))
            }
            self.loops = loops
            for loop in loops { loop.start() }
        }

        private var loop: ClientLoop {
            loops.count == 1
                ? loops[0] : loops[Int(nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(loops.count))]
        }

        /// Sends `request` on the next connection with a free stream and returns APNs' answer.
        ///
        /// - Throws: ``APNsError`` when the request is invalid, times out, or its connection is lost.
        public func send(_ request: HTTPRequest) async throws(APNsError) -> HTTPResponse {
            let result = await withCheckedContinuation { continuation in
                submit(request) { continuation.resume(returning: $0) }
            }
            return try result.get()
        }

        /// Calls `completion` on the transport's thread.
        public func submit(
            _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void
        ) {
            if let problem = request.headerProblem { return completion(.failure(APNsError(.invalidRequest, problem))) }
            let loop = loop
            let stream = ClientStream(request: request, now: loop.now(), completion: completion)
            if !loop.enqueue(stream) { stream.fail("the sender is shut down", kind: .shutDown) }
        }

        func submit(_ delivery: Delivery, authorization: String?, timeout: Duration) {
            if let problem = Self.headerProblem(delivery) {
                return delivery.received(.failure(APNsError(.invalidRequest, problem)))
            }
            let loop = loop
            let stream =
                loop.reusableStream(for: delivery, authorization: authorization, timeout: timeout)
                ?? ClientStream(delivery: delivery, authorization: authorization, timeout: timeout, now: loop.now())
            if !loop.enqueue(stream) { stream.fail("the sender is shut down", kind: .shutDown) }
        }

        /// The check of ``HTTPRequest/headerProblem`` for the values a notification's headers take as they
        /// are (the others are written from numbers and the token).
        private static func headerProblem(_ delivery: Delivery) -> String? {
            // The common case first, byte by byte over the topic's storage (String's generic UTF-8 view
            // costs more per notification than the rest of the submission); the messages come from
            // HeaderField.
            // Read in place from the delivery: the notification is not copied.
            if Self.isPlainValue(delivery.notification.topic)
                && Self.isPlainValue(delivery.notification.pushType.rawValue)
                && delivery.notification.collapseID.map(Self.isPlainValue) != false
            {
                return nil
            }
            let notification = delivery.notification
            return HeaderField.problem(name: "apns-topic", value: notification.topic)
                ?? HeaderField.problem(name: "apns-push-type", value: notification.pushType.rawValue)
                ?? notification.collapseID.flatMap { HeaderField.problem(name: "apns-collapse-id", value: $0) }
        }

        /// Whether `value` holds printable ASCII only, without a space at either end: the values
        /// ``HeaderField/isValidValue(_:)`` accepts without a closer look (it accepts more: tabs inside, UTF-8).
        private static func isPlainValue(_ value: String) -> Bool {
            let checked = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else {
                    return bytes.isEmpty
                }
                var valid = true
                for byte in bytes { valid = valid && byte >= 0x20 && byte < 0x7F }
                return valid
            }
            return checked ?? false
        }

        /// Stops taking requests, lets those under way finish, and closes every connection.
        public func shutdown() async {
            await withTaskGroup(of: Void.self) { group in
                for loop in loops { group.addTask { await loop.shutdown() } }
            }
        }
    }
#endif
