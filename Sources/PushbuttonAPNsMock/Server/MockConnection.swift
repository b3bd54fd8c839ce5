internal import CNGHTTP2
import Foundation
import PushbuttonAPNs
import PushbuttonHTTP2

/// One client connection: a non-blocking socket, optionally TLS, and an nghttp2 server session.
/// Used only on the server's thread.
final class MockConnection: NGHTTP2SessionOwner {
    enum State {
        case open
        /// Our side was shut down (after GOAWAY or a dropped-connection fault); reading until the client
        /// closes, so unread input does not turn our close into a reset that loses the last answers.
        case draining(until: ContinuousClock.Instant)
        case closed
    }

    let number: Int
    private let channel: SocketChannel
    private var handshakeComplete: Bool
    private var session: OpaquePointer?
    private lazy var context = NGHTTP2SessionContext.make(owner: self)
    private unowned let loop: MockServerLoop
    private let service: MockAPNsService
    private var streams: [Int32: MockStream] = [:]
    private var outbound = OutboundBuffer()
    /// Every answer's header list is written here, storage reused.
    private let answerHeaders = NGHTTP2HeaderBlock()
    /// Whether an answer put `apns-id` and `apns-unique-id` in the HPACK table (see ``answer``).
    private var indexedAnswerNames = (id: false, uniqueID: false)
    private var auth = ConnectionAuthState()
    private var raisedStreamLimit = false
    private var answered = 0
    /// Set once GOAWAY was sent: requests on later streams are not processed.
    private var goawayLastStream: Int32?
    /// The highest stream a decision was made for: a GOAWAY names it as the last one processed, since a delayed
    /// answer can be the one that triggers the GOAWAY while later streams already have their (pending) answers.
    private var lastDecidedStream: Int32 = 0
    private var dropRequested = false
    private var delayedAnswers = 0
    /// Delayed answers given since the last flush: the loop flushes once after firing every due timer, so
    /// answers due together share a write (one TLS record and syscall per answer would make the mock, not
    /// the client, set the pace of a run against a slow server).
    private(set) var answeredByTimer = false
    private(set) var state = State.open
    let openedAt = ContinuousClock.now
    /// When the client last sent a byte.
    private(set) var lastActivity = ContinuousClock.now

    /// Whether the connection has a request under way (answered or not); an idle one has none.
    var isIdle: Bool { streams.isEmpty && delayedAnswers == 0 }

    /// Closes the connection when its handshake or its idleness has lasted too long (``MockAPNsConfiguration``'s
    /// timeouts). Returns whether it did.
    func closeIfExpired(now: ContinuousClock.Instant) -> Bool {
        guard case .open = state else { return false }
        let configuration = service.configuration
        if !handshakeComplete || !receivedBytes {
            guard now - openedAt >= configuration.handshakeTimeout else { return false }
        } else {
            guard isIdle, now - lastActivity >= configuration.idleTimeout else { return false }
        }
        close()
        return true
    }
    private var receivedBytes = false

    init(number: Int, socket: Int32, tls: TLSServerContext?, loop: MockServerLoop, service: MockAPNsService)
        throws(MockAPNsError)
    {
        self.number = number
        self.loop = loop
        self.service = service
        handshakeComplete = tls == nil
        var ssl: OpaquePointer?
        if let tls {
            guard let session = tls.session(for: socket) else {
                throw MockAPNsError(.connectionSetup, "OpenSSL could not start a TLS session: \(OpenSSLErrors.last())")
            }
            ssl = session
        }
        channel = SocketChannel(socket: socket, ssl: ssl)
        var session: OpaquePointer?
        guard nghttp2_session_server_new(&session, NGHTTP2Callbacks.shared.callbacks, context.userData) == 0 else {
            throw MockAPNsError(.connectionSetup, "nghttp2 could not create a session")
        }
        self.session = session
        submitStreamLimit(service.configuration.initialMaximumConcurrentStreams)
    }

    deinit {
        if let session { nghttp2_session_del(session) }
    }

    var socket: Int32 { channel.socket }

    /// Whether the loop should wait for the socket to become writable.
    var wantsWrite: Bool {
        guard case .open = state else { return false }
        if !handshakeComplete { return channel.tlsWantsWrite }
        return !outbound.isEmpty
    }

    // MARK: Events from the loop

    func readable() {
        loop.ownership.check("MockConnection")
        switch state {
        case .closed: return
        case .draining: discardInput()
        case .open:
            if !handshakeComplete && !continueHandshake() { return }
            readFrames()
            flush()
        }
    }

    func writable() {
        loop.ownership.check("MockConnection")
        guard case .open = state else { return }
        if !handshakeComplete && !continueHandshake() { return }
        flush()
    }

    /// Closes a draining connection whose client never closed its side.
    func checkDrainDeadline(now: ContinuousClock.Instant) {
        if case .draining(let until) = state, now >= until { close() }
    }

    func close() {
        loop.ownership.check("MockConnection")
        guard !isClosed else { return }
        endSilences()
        state = .closed
        channel.close()
        streams.removeAll()
    }

    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    // MARK: TLS and I/O

    /// Returns whether the handshake is complete. A client that negotiated no protocol is taken to speak
    /// HTTP/2 with prior knowledge, as APNs does (aioapns sends no ALPN); nghttp2 then insists on the
    /// HTTP/2 preface, so an HTTP/1.1 client is closed at its first bytes.
    private func continueHandshake() -> Bool {
        switch channel.handshake() {
        case .done:
            handshakeComplete = true
            if service.configuration.clientCertificateAuthority != nil {
                // Verified by OpenSSL against the configured CA during the handshake; its topics decide.
                let certificate = channel.peerCertificateDER.flatMap(ClientCertificateTopics.init)
                auth.certificateTopics = certificate?.topics ?? []
                auth.certificateEnvironments = certificate?.environments ?? []
            }
            return true
        case .wantsRead, .wantsWrite:
            return false
        case .failed:
            close()
            return false
        }
    }

    private func readFrames() {
        let buffer = loop.readBuffer
        while case .open = state, !dropRequested {
            let count = channel.receive(into: buffer)
            if count < 0 { return }
            if count > 0 {
                lastActivity = .now
                receivedBytes = true
            }
            guard count > 0, let session, nghttp2_session_mem_recv(session, buffer.baseAddress, count) >= 0 else {
                close()  // the peer closed, the connection failed, or the peer broke HTTP/2
                return
            }
        }
    }

    private func discardInput() {
        let buffer = loop.readBuffer
        while true {
            let count = recv(channel.socket, buffer.baseAddress, buffer.count, 0)
            if count > 0 { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
            close()
            return
        }
    }

    /// Moves nghttp2's pending frames to the socket, then closes the connection if it is finished.
    func flush() {
        answeredByTimer = false
        guard case .open = state, let session else { return }
        // Answers submitted before a dropped-connection fault still go out: the fault loses the
        // requests after it, not answers the server already gave (and recorded).
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            guard count > 0, let data else {
                if count < 0 { close() }
                break
            }
            outbound.append(UnsafeBufferPointer(start: data, count: count))
        }
        guard case .open = state, handshakeComplete else { return }  // frames wait for the TLS handshake
        guard let written = outbound.write(to: channel) else {
            close()
            return
        }
        guard written else { return }
        let sessionDone = nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0
        let goawayDone = goawayLastStream != nil && delayedAnswers == 0
        if dropRequested || sessionDone || goawayDone { beginDraining() }
    }

    private func beginDraining() {
        endSilences()
        channel.shutdownWrites()
        state = .draining(until: .now + .seconds(2))
    }

    // MARK: HTTP/2

    private func submitStreamLimit(_ limit: Int) {
        guard let session else { return }
        var setting = nghttp2_settings_entry(
            settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: UInt32(clamping: limit))
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &setting, 1)
    }

    func beginStream(_ streamID: Int32) {
        streams[streamID] = MockStream()
    }

    func header(_ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        header(streamID, name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    private func header(_ streamID: Int32, name: String, value: String) {
        guard let stream = streams[streamID] else { return }
        switch name {
        case ":method": stream.method = value
        case ":path": stream.path = value
        case ":authority", ":scheme": break
        default: stream.headers.append((name, value))
        }
    }

    func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard let stream = streams[streamID] else { return }
        let room = MockStream.bodyLimit - stream.body.count
        if room > 0 { stream.body.append(contentsOf: bytes.prefix(room)) }
    }

    func frameReceived(type: UInt32, flags: UInt8, streamID: Int32, goawayReason: String?) {
        let endsStream = flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        if endsStream && (type == NGHTTP2_HEADERS.rawValue || type == NGHTTP2_DATA.rawValue) {
            requestComplete(streamID)
        }
        if type == NGHTTP2_PING.rawValue && flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { service.recorder.ping() }
    }

    func streamClosed(_ streamID: Int32, errorCode: UInt32) {
        if let stream = streams.removeValue(forKey: streamID), stream.silenced {
            service.recorder.silencesEnded(1)
        }
    }

    /// The connection will carry no more answers: its silenced streams end here, before the client sees it close.
    private func endSilences() {
        var ended = 0
        for stream in streams.values where stream.silenced {
            stream.silenced = false
            ended += 1
        }
        if ended > 0 { service.recorder.silencesEnded(ended) }
    }

    /// A request is complete: decide, then answer, refuse, drop or stay silent.
    func requestComplete(_ streamID: Int32) {
        loop.ownership.check("MockConnection")
        guard let stream = streams[streamID], !dropRequested else { return }
        if let last = goawayLastStream, streamID > last { return }  // not processed, as GOAWAY promised
        let decision = service.decide(stream.request, auth: &auth, connection: number)
        lastDecidedStream = max(lastDecidedStream, streamID)
        if auth.hasValidToken && !raisedStreamLimit {
            raisedStreamLimit = true
            submitStreamLimit(service.configuration.maximumConcurrentStreams)
        }
        switch decision {
        case .respond(let response, let apnsID, let accepted):
            answer(streamID, response, apnsID: apnsID, accepted: accepted)
        case .respondLater(let delay, let response, let apnsID, let accepted):
            delayedAnswers += 1
            loop.schedule(after: delay) { [weak self] in
                guard let self else { return }
                self.delayedAnswers -= 1
                // A connection dropped or draining meanwhile cannot carry the answer: it is not given (or
                // recorded), and the client sends the notification again.
                guard case .open = self.state, !self.dropRequested else { return }
                self.answer(streamID, response, apnsID: apnsID, accepted: accepted)
                self.answeredByTimer = true
            }
        case .refuse:
            if let session {
                nghttp2_submit_rst_stream(
                    session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_REFUSED_STREAM.rawValue)
            }
        case .drop:
            dropRequested = true
            endSilences()
        case .silence:
            stream.silenced = true
        }
    }

    private func answer(_ streamID: Int32, _ response: MockResponse, apnsID: String, accepted: RecordedNotification?) {
        guard let session, let stream = streams[streamID] else { return }
        // The ids differ on every answer: kept out of the HPACK table, where they would only cost both
        // sides an entry (and an allocation) per answer. Only the first of each goes in, so its name is
        // in the table and later answers refer to it: the client's decoder then allocates for the value
        // alone (a literal name costs it an allocation too).
        let headers = answerHeaders
        headers.removeAll()
        headers.add(":status", String(response.status))
        headers.add("apns-id", apnsID, indexed: !indexedAnswerNames.id)
        indexedAnswerNames.id = true
        if let accepted {
            headers.add("apns-unique-id", accepted.uniqueID, indexed: !indexedAnswerNames.uniqueID)
            indexedAnswerNames.uniqueID = true
        }
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            headers.add(name, value, indexed: false)
        }
        let body = response.body
        if !body.isEmpty { headers.add("content-type", "application/json") }
        stream.responseBody = body
        let submitted = headers.withNameValues { nameValues, count -> Int32 in
            guard !body.isEmpty else { return nghttp2_submit_response(session, streamID, nameValues, count, nil) }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: nil), read_callback: NGHTTP2Callbacks.readBody)
            return nghttp2_submit_response(session, streamID, nameValues, count, &provider)
        }
        guard submitted == 0 else { return }
        service.answered(response, apnsID: apnsID, accepted: accepted, path: stream.path, connection: number)
        answered += 1
        if goawayLastStream == nil && service.goawayAfterAnswer(answered: answered) {
            sendGoaway(lastStream: lastDecidedStream)
        }
    }

    private func sendGoaway(lastStream: Int32) {
        guard let session else { return }
        goawayLastStream = lastStream
        let reason = Array(#"{"reason":"\#(service.configuration.faults.goawayReason)"}"#.utf8)
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream, NGHTTP2_NO_ERROR.rawValue, reason, reason.count)
    }

    /// Copies the next part of a response body into nghttp2's buffer.
    func readBody(
        _ streamID: Int32, source: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>, length: Int
    ) -> (count: Int, finished: Bool) {
        guard let stream = streams[streamID] else { return (0, true) }
        let count = min(length, stream.responseBody.count - stream.responseOffset)
        let next = stream.responseBody[stream.responseOffset..<(stream.responseOffset + count)]
        _ = UnsafeMutableBufferPointer(start: buffer, count: count).update(fromContentsOf: next)
        stream.responseOffset += count
        return (count, stream.responseOffset == stream.responseBody.count)
    }
}
