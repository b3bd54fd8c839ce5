#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import PushbuttonHTTP2
    import PushbuttonSupport
    import Synchronization

    /// The nghttp2 transport's one thread: it owns the connections, hands waiting requests to connections
    /// with free streams, opens and replaces connections, and runs the timers. Callers reach it only through
    /// ``enqueue(_:)`` and ``shutdown()``.
    final class ClientLoop: @unchecked Sendable {
        // `@unchecked Sendable`: `incoming` and `accepting` are guarded by `lock`; everything else belongs to
        // the loop's thread (checked by `ownership` in debug builds). Either way no two accesses overlap, so
        // the properties used per request skip the runtime's exclusivity checks (`@exclusivity(unchecked)`).
        let configuration: TransportConfiguration
        /// `host` or `host:port`, for `:authority`.
        let authority: String
        private let tls: TLSClientContext?
        private let lock = NSLock()
        @exclusivity(unchecked) private var incoming: [ClientStream] = []
        @exclusivity(unchecked) private var accepting = true
        /// `accepting`, for the loop's own thread to read without the lock (set false under it, before the
        /// loop's last turn).
        private let isAccepting = Atomic<Bool>(true)
        /// Requests the loop's thread queued itself since the last dispatch (see ``enqueue(_:)``).
        @exclusivity(unchecked) private var arrivedOnLoop = 0
        @exclusivity(unchecked) private var wakeRequested = false
        private let wakeUp: LoopWakeUp
        @exclusivity(unchecked) private var waiting: [ClientStream] = []
        @exclusivity(unchecked) private var waitingHead = 0
        @exclusivity(unchecked) private var connections: [ClientConnection] = []
        private var connectionCount = 0
        private var consecutiveFailures = 0
        /// The time on the injected clock since the loop was made: what deadlines, PINGs and the reconnection
        /// backoff are measured in (`ContinuousClock` outside tests).
        let now: @Sendable () -> Duration
        private var nextConnectAllowed = Duration.zero
        @exclusivity(unchecked) private var nextTimerCheck = Duration.zero
        private let finished = ThreadExit()
        /// The loop's thread, checked in debug builds wherever loop-only state is touched.
        let ownership = ThreadOwnership()
        /// One read buffer shared by the connections: reads never overlap on the loop's thread.
        let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
        /// How often a read paused to submit the requests its answers refilled (for tests and profiles).
        let readPauses = Atomic<Int>(0)
        /// How many requests went out on a reused stream (for tests and profiles).
        let streamsReused = Atomic<Int>(0)
        /// Finished notification streams, reused by requests submitted on the loop's thread (a bulk send
        /// refilling from an answer): loop-only, so taking one needs no lock.
        @exclusivity(unchecked) private var spareStreams: [ClientStream] = []
        /// Who hears of connections opening, closing and going away (``APNsObserver``s).
        let observers = ObserverSlot()

        init(configuration: TransportConfiguration, clock: AnyDurationClock) throws(APNsError) {
            self.configuration = configuration
            now = clock.stopwatch()
            let environment = configuration.environment
            authority = environment.port == 443 ? environment.host : "\(environment.host):\(environment.port)"
            tls =
                environment.cleartext
                ? nil
                : try TLSClientContext(
                    caFile: environment.caFile, clientCertificate: configuration.effectiveCertificate,
                    host: environment.host)
            do {
                wakeUp = try LoopWakeUp()
            } catch {
                throw APNsError(.transport, error.message)
            }
        }

        deinit {
            readBuffer.deallocate()
        }

        func start() {
            let thread = Thread { [self] in run() }
            thread.name = "pushbutton.apns.nghttp2"
            thread.start()
        }

        /// Hands a request to the loop; false once the transport is shut down.
        func enqueue(_ stream: ClientStream) -> Bool {
            // On the loop's own thread (a bulk send refilling from an answer) the request goes straight to the
            // loop's queue, which it serves before it polls again: no lock and no wake-up needed.
            if isLoopThread {
                guard isAccepting.load(ordering: .relaxed) else { return false }
                waiting.append(stream)
                arrivedOnLoop += 1
                return true
            }
            let wake = lock.withLock { () -> Bool? in
                guard accepting else { return nil }
                incoming.append(stream)
                defer { wakeRequested = true }
                return !wakeRequested
            }
            guard let wake else { return false }
            if wake { wakeUp.signal() }
            return true
        }

        /// A finished stream for `delivery`'s attempt from the pool, when called on the loop's thread and the
        /// pool has one; nil otherwise (the caller allocates one).
        func reusableStream(for delivery: Delivery, authorization: String?, timeout: Duration) -> ClientStream? {
            guard isLoopThread, let stream = spareStreams.popLast() else { return nil }
            streamsReused.add(1, ordering: .relaxed)
            stream.reuse(delivery: delivery, authorization: authorization, timeout: timeout, now: now())
            return stream
        }

        /// Keeps a finished notification stream that its connection has let go of (closed on the server's
        /// side, no longer in any stream table) for ``reusableStream(for:authorization:timeout:)``.
        /// The loop's `waiting` list may still refer to it before its head, where it is never read again.
        func recycle(_ stream: ClientStream) {
            ownership.check("ClientLoop")
            guard stream.isFinished, stream.isNotification, spareStreams.count < 4096 else { return }
            spareStreams.append(stream)
        }

        /// Stops taking requests, finishes those under way, closes the connections.
        func shutdown() async {
            let first = lock.withLock { () -> Bool in
                defer {
                    accepting = false
                    isAccepting.store(false, ordering: .relaxed)
                }
                return accepting
            }
            wakeUp.signal()
            guard first else { return }
            await finished.wait()
        }

        // MARK: Called by connections

        func connectionReady() {
            ownership.check("ClientLoop")
            consecutiveFailures = 0
            observers.report(.connectionOpened(origin: configuration.environment.origin))
        }

        /// A stream the server did not process goes back to the queue for another connection.
        func requeue(_ stream: ClientStream, because reason: String) {
            ownership.check("ClientLoop")
            guard stream.moves < 3 else {
                stream.fail("stream lost: \(reason), three times")
                return
            }
            stream.resetForRetry()
            waiting.append(stream)
        }

        func connectionClosed(_ connection: ClientConnection, wasReady: Bool, reason: String?) {
            ownership.check("ClientLoop")
            observers.report(
                wasReady
                    ? .connectionClosed(origin: configuration.environment.origin, reason: reason)
                    : .connectionFailed(origin: configuration.environment.origin, reason: reason ?? "closed"))
            guard let reason, !wasReady else { return }
            // It never became usable: back off before the next attempt (APNs treats rapid reconnects as
            // abuse), and if no connection works, fail what waits instead of letting it time out.
            consecutiveFailures += 1
            let delay = Duration.milliseconds(min(5000, 50 << min(consecutiveFailures, 7)))
            nextConnectAllowed = now() + delay
            if !connections.contains(where: { $0 !== connection && $0.isLive }) {
                failWaiting("stream lost: \(reason)", kind: .unreachable)
            }
        }

        /// In the middle of a read: submits the requests that the answers read so far brought (a bulk send
        /// refilling on this thread), so they are on their way while the rest of the read is handled.
        func submitArrived() {
            ownership.check("ClientLoop")
            guard arrivedOnLoop > 0 || lock.withLock({ !incoming.isEmpty }) else { return }
            readPauses.add(1, ordering: .relaxed)
            takeIncoming()
            dispatch()
        }

        // MARK: The loop

        /// Whether the caller is the loop's thread (compared by pthread id, in every build).
        private var isLoopThread: Bool {
            loopThread.load(ordering: .relaxed) == ThreadOwnership.currentThreadID()
        }
        private let loopThread = Atomic<UInt>(0)

        private func run() {
            loopThread.store(ThreadOwnership.currentThreadID(), ordering: .relaxed)
            ownership.claim()
            let turn = LoopTurn()
            turn.install()
            while true {
                takeIncoming()
                dispatch()
                // The requests are on their way: now the results of this turn's answers are handed on.
                turn.end()
                let open = lock.withLock { accepting }
                if !open && pendingCount == 0 && connections.allSatisfy({ $0.activeStreams == 0 }) { break }
                waitForEvents()
                let now = now()
                if now >= nextTimerCheck {
                    nextTimerCheck = now + .milliseconds(50)
                    expireWaiting(now: now)
                    for connection in connections { connection.checkTimers(now: now) }
                }
                connections.removeAll { $0.state == .closed }
            }
            for connection in connections { connection.close(nil) }
            connections.removeAll()
            turn.uninstall()
            finished.signal()
        }

        private var pendingCount: Int { waiting.count - waitingHead }
        @exclusivity(unchecked) private var descriptors: [pollfd] = []

        private func takeIncoming() {
            let taken = lock.withLock { () -> [ClientStream] in
                defer {
                    incoming.removeAll(keepingCapacity: true)
                    wakeRequested = false
                }
                return incoming
            }
            waiting.append(contentsOf: taken)
        }

        /// Gives waiting requests to connections with free streams, opening connections as needed.
        private func dispatch() {
            ownership.check("ClientLoop")
            arrivedOnLoop = 0
            dispatching: while waitingHead < waiting.count {
                guard let connection = connections.max(by: { $0.capacity < $1.capacity }), connection.capacity > 0
                else {
                    openConnectionIfNeeded()
                    break
                }
                // Filled while it has room: the connection is chosen once per batch, not once per request.
                while waitingHead < waiting.count {
                    let stream = waiting[waitingHead]
                    if stream.isFinished {
                        waitingHead += 1
                        continue
                    }
                    // Refused only once it has no room left (or ran out of stream ids): choose again.
                    guard connection.submit(stream) else { continue dispatching }
                    waitingHead += 1
                }
            }
            if waitingHead > 1024 && waitingHead * 2 > waiting.count {
                waiting.removeFirst(waitingHead)
                waitingHead = 0
            }
            for connection in connections where connection.needsFlush { connection.flush() }
        }

        private func openConnectionIfNeeded() {
            let usable = connections.filter(\.isUsable).count
            guard usable < configuration.connections, now() >= nextConnectAllowed else { return }
            connect()
        }

        private func connect() {
            let environment = configuration.environment
            // Through a proxy, TCP goes to the proxy and a CONNECT tunnel to APNs comes before TLS.
            let proxy = configuration.proxy.flatMap { $0.applies(to: environment.host) ? $0 : nil }
            let (host, port) = proxy.map { ($0.host, $0.port) } ?? (environment.host, environment.port)
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var addresses: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &addresses)
            guard status == 0, let address = addresses else {
                let name = proxy.map { "the proxy \($0)" } ?? host
                failConnectAttempt("cannot resolve \(name): \(String(cString: gai_strerror(status)))")
                return
            }
            defer { freeaddrinfo(addresses) }
            let socket = Foundation.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else {
                failConnectAttempt("cannot create a socket: \(String(cString: strerror(errno)))")
                return
            }
            SocketChannel.configure(socket)
            var one: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
            let result = Foundation.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen)
            guard result == 0 || errno == EINPROGRESS else {
                let reason = String(cString: strerror(errno))
                close(socket)
                failConnectAttempt(
                    "cannot connect to \(proxy.map { "the proxy \($0)" } ?? environment.origin): \(reason)")
                return
            }
            var ssl: OpaquePointer?
            if let tls {
                guard let session = tls.session(socket: socket, host: environment.host) else {
                    close(socket)
                    failConnectAttempt("OpenSSL could not start a TLS session")
                    return
                }
                ssl = session
            }
            connectionCount += 1
            connections.append(
                ClientConnection(
                    number: connectionCount, channel: SocketChannel(socket: socket, ssl: ssl), loop: self,
                    tunnel: proxy.map {
                        ProxyTunnel(
                            proxyName: $0.description, targetHost: environment.host, targetPort: environment.port,
                            authorization: $0.authorization)
                    }))
        }

        private func failConnectAttempt(_ reason: String) {
            consecutiveFailures += 1
            nextConnectAllowed = now() + .milliseconds(min(5000, 50 << min(consecutiveFailures, 7)))
            if !connections.contains(where: { $0.isLive }) {
                failWaiting("stream lost: \(reason)", kind: .unreachable)
            }
        }

        /// `kind` is `.unreachable` when no connection could be made: the waiting requests were never sent.
        private func failWaiting(_ message: String, kind: APNsError.Kind = .transport) {
            // Taken out first: a failure's handler may queue a request on this thread (``enqueue(_:)``), which
            // then waits for the next connection instead of being dropped with these.
            let failed = waiting[waitingHead...]
            waiting.removeAll(keepingCapacity: true)
            waitingHead = 0
            for stream in failed { stream.fail(message, kind: kind) }
        }

        private func expireWaiting(now: Duration) {
            // Never sent; with no live connection, because none could be made (a black-holed connect) or the one
            // there went silent (in doubt, its PING unanswered).
            let kind: APNsError.Kind = connections.contains { $0.isLive } ? .transport : .unreachable
            for stream in waiting[waitingHead...] where !stream.isFinished && now >= stream.deadline {
                stream.fail("no connection could take the request within \(stream.timeout)", kind: kind)
            }
        }

        private func waitForEvents() {
            let polled = connections
            // One array for every poll (capacity kept): the loop turns once per batch of answers.
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeUp.descriptor, events: Int16(POLLIN), revents: 0))
            for connection in polled {
                descriptors.append(pollfd(fd: connection.socket, events: connection.pollEvents, revents: 0))
            }
            _ = poll(&descriptors, nfds_t(descriptors.count), 50)
            if descriptors[0].revents != 0 { wakeUp.drain() }
            for (index, connection) in polled.enumerated() {
                let events = descriptors[index + 1].revents
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { connection.readable() }
                if events & Int16(POLLOUT) != 0 { connection.writable() }
            }
        }
    }
#endif
