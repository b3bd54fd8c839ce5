#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import Pushbutton
    import PushbuttonHTTP2
    internal import CNGHTTP2

    /// One HTTP/2 connection to APNs: connecting, the TLS handshake, then an nghttp2 client session.
    /// Used only on the transport's thread (checked by `loop.ownership` in debug builds), so the stored
    /// properties used per request skip the runtime's exclusivity checks (`@exclusivity(unchecked)`).
    final class ClientConnection: NGHTTP2SessionOwner {
        enum State: Equatable {
            case connecting
            /// Waiting for the proxy's answer to CONNECT (only with a proxy).
            case tunnelling
            case handshaking
            case ready
            case closed
        }

        let number: Int
        @exclusivity(unchecked) private(set) var state = State.connecting
        private let channel: SocketChannel
        /// The CONNECT exchange when the connection goes through a proxy.
        private let tunnel: ProxyTunnel?
        /// Unowned and unchecked: the loop owns its connections and outlives them, and an `unowned` reference
        /// costs an atomic retain and release at every use (several per request).
        private unowned(unsafe) let loop: ClientLoop
        @exclusivity(unchecked) private var session: OpaquePointer?
        private lazy var context = NGHTTP2SessionContext.make(owner: self)
        @exclusivity(unchecked) private var outbound = OutboundBuffer()
        /// Every request's header list is written here, storage reused.
        private let headerBlock = NGHTTP2HeaderBlock()
        /// What `headerBlock` holds, when a notification filled it.
        @exclusivity(unchecked) private var headerShape: NotificationHeaderShape?
        private var scheme: StaticString { loop.configuration.environment.cleartext ? "http" : "https" }
        @exclusivity(unchecked) private var streams: [Int32: ClientStream] = [:]
        @exclusivity(unchecked) private var settingsReceived = false
        /// Set by a GOAWAY (or exhausted stream ids): no new streams; closed once the last one ends.
        @exclusivity(unchecked) private(set) var goingAway = false
        private var goawayReason: String?
        /// On the loop's clock (``ClientLoop/now``), as every timer of the connection.
        @exclusivity(unchecked) private var lastReceived: Duration
        @exclusivity(unchecked) private var pingSentAt: Duration?
        /// Set when a stream timed out with nothing from the server since that request was made, until anything
        /// arrives: the PING sent then tells whether the connection is alive. Meanwhile it takes no new stream: on
        /// a dead (black-holed) connection the request would be lost with it, an attempt spent on a request that
        /// never reached APNs. A connection that answered anything during the request's time is slow, not dead,
        /// and keeps taking requests (``silentSince(_:)``).
        @exclusivity(unchecked) private(set) var inDoubt = false
        /// Whether frames were submitted since the last flush.
        @exclusivity(unchecked) private(set) var needsFlush = false
        /// Streams closed since requests were last submitted in the middle of a read.
        @exclusivity(unchecked) private var closedSinceSubmit = 0
        /// Set while a read is fed to nghttp2: a write that fails meanwhile (a server that answered, then
        /// closed) closes the connection only once the answers already read are handled, so none of them
        /// is taken for lost and sent again.
        @exclusivity(unchecked) private var readingFrames = false
        private var closeAfterRead: String?
        /// How many bytes of a read nghttp2 takes at a time (about 18 answers of APNs' size).
        private static let receiveSlice = 512

        init(number: Int, channel: SocketChannel, loop: ClientLoop, tunnel: ProxyTunnel? = nil) {
            self.number = number
            self.channel = channel
            self.tunnel = tunnel
            self.loop = loop
            lastReceived = loop.now()
        }

        deinit {
            if let session { nghttp2_session_del(session) }
        }

        var socket: Int32 { channel.socket }
        var activeStreams: Int { streams.count }
        /// Whether the connection may still take streams (or will, once it is ready).
        var isUsable: Bool { state != .closed && !goingAway }
        /// Ready and not in doubt: a request it takes goes out on a connection known to carry.
        var isLive: Bool { state == .ready && !inDoubt }

        /// Streams this connection can open now: the server's limit (1 until its SETTINGS arrive, as APNs
        /// starts), our own limit, minus those open.
        var capacity: Int {
            guard state == .ready, !goingAway, !inDoubt, let session else { return 0 }
            let remote =
                settingsReceived
                ? Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)) : 1
            return max(0, min(remote, loop.configuration.maximumStreamsPerConnection) - streams.count)
        }

        var pollEvents: Int16 {
            switch state {
            case .connecting: return Int16(POLLOUT)
            case .tunnelling: return Int16(tunnel?.isSending == true ? POLLOUT : POLLIN)
            case .handshaking: return Int16(channel.tlsWantsWrite ? POLLOUT : POLLIN)
            case .ready: return Int16(POLLIN | (outbound.isEmpty ? 0 : POLLOUT))
            case .closed: return 0
            }
        }

        // MARK: Events

        func readable() {
            loop.ownership.check("ClientConnection")
            switch state {
            case .connecting, .closed: return
            case .tunnelling: continueTunnel()
            case .handshaking: continueHandshake()
            case .ready:
                readFrames()
                flush()
            }
        }

        func writable() {
            loop.ownership.check("ClientConnection")
            switch state {
            case .connecting: finishConnecting()
            case .tunnelling: continueTunnel()
            case .handshaking: continueHandshake()
            case .ready: flush()
            case .closed: return
            }
        }

        private func finishConnecting() {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(channel.socket, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                let target = tunnel.map { "the proxy \($0.proxyName)" } ?? loop.configuration.environment.origin
                close("cannot connect to \(target): \(String(cString: strerror(error)))")
                return
            }
            if tunnel != nil {
                state = .tunnelling
                continueTunnel()
            } else {
                startTLSOrSession()
            }
        }

        /// Once the proxy's tunnel is open, the connection goes on as a direct one.
        private func continueTunnel() {
            guard let tunnel else { return }
            switch tunnel.advance(socket: channel.socket) {
            case .done: startTLSOrSession()
            case .wantsRead, .wantsWrite: return
            case .failed(let reason): close(reason)
            }
        }

        private func startTLSOrSession() {
            if channel.isTLS {
                state = .handshaking
                continueHandshake()
            } else {
                startSession()
            }
        }

        private func continueHandshake() {
            switch channel.handshake() {
            case .done:
                if let chosen = channel.negotiatedProtocol, chosen != "h2" {
                    close("the server chose \(chosen) instead of HTTP/2")
                    return
                }
                startSession()
            case .wantsRead, .wantsWrite: return
            case .failed(let reason): close("\(loop.configuration.environment.origin): \(reason)")
            }
        }

        private func startSession() {
            var session: OpaquePointer?
            guard
                nghttp2_session_client_new(&session, NGHTTP2Callbacks.shared.callbacks, context.userData) == 0
            else {
                close("nghttp2 could not create a session")
                return
            }
            self.session = session
            var settings = [
                nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
                nghttp2_settings_entry(
                    settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20),
            ]
            nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
            state = .ready
            lastReceived = loop.now()
            loop.connectionReady()
            flush()
        }

        private func readFrames() {
            let buffer = loop.readBuffer
            // The requests that the first answers refilled go out while the rest of the read is handled, so the
            // server works meanwhile instead of the two sides taking turns: after 2 answers, then after twice
            // as many each time, up to a sixteenth of the streams open as the read begins (at least 4). The
            // server gets work at once, and a large read still costs few writes. Measured against fixed
            // thresholds and other slice sizes in Benchmarks/README.md (1000 streams to nghttpd: 0.74 -> 0.88-1.08x
            // h2load's rate, 20 and 100 streams unchanged).
            let submitCap = max(4, streams.count / 16)
            var submitThreshold = min(2, submitCap)
            closedSinceSubmit = 0
            readingFrames = true
            defer {
                readingFrames = false
                if let reason = closeAfterRead {
                    closeAfterRead = nil
                    close(reason)
                }
            }
            while state == .ready {
                let count = channel.receive(into: buffer)
                if count < 0 { break }
                guard count > 0 else {
                    close(
                        goawayReason.map { "the server closed the connection after GOAWAY (\($0))" }
                            ?? "the server closed the connection" + (channel.lastTLSError.map { " (TLS: \($0))" } ?? "")
                    )
                    return
                }
                guard let session else { return }
                // Fed to nghttp2 in slices: once a slice has finished enough streams, the requests their
                // answers refilled go out before the rest of the read is handled, so the server works on
                // them meanwhile instead of waiting for the whole batch (sender and server taking turns
                // would set the pace, not either one's speed).
                var offset = 0
                while offset < count {
                    let slice = min(count - offset, Self.receiveSlice)
                    guard nghttp2_session_mem_recv(session, buffer.baseAddress! + offset, slice) >= 0 else {
                        close("the server broke the HTTP/2 protocol")
                        return
                    }
                    offset += slice
                    if closedSinceSubmit >= submitThreshold {
                        closedSinceSubmit = 0
                        submitThreshold = min(submitThreshold * 2, submitCap)
                        loop.submitArrived()
                        guard state == .ready else { return }
                    }
                }
            }
            lastReceived = loop.now()
            pingSentAt = nil  // anything from the server shows the connection is alive
            inDoubt = false  // what waits goes out on it at the loop's next dispatch
        }

        /// Moves nghttp2's frames to the socket; closes the connection once a GOAWAY has been served.
        func flush() {
            needsFlush = false
            guard state == .ready, let session else { return }
            while true {
                var data: UnsafePointer<UInt8>?
                let count = nghttp2_session_mem_send(session, &data)
                guard count > 0, let data else {
                    if count < 0 {
                        close("nghttp2 failed to send: \(String(cString: nghttp2_strerror(Int32(count))))")
                        return
                    }
                    break
                }
                outbound.append(UnsafeBufferPointer(start: data, count: count))
            }
            guard let written = outbound.write(to: channel) else {
                if readingFrames {
                    closeAfterRead = closeAfterRead ?? "the connection failed while sending"
                } else {
                    close("the connection failed while sending")
                }
                return
            }
            if written && goingAway && streams.isEmpty { close(nil) }
        }

        // MARK: Streams

        /// Opens a stream for `stream`'s request; false when this connection cannot take it.
        func submit(_ stream: ClientStream) -> Bool {
            loop.ownership.check("ClientConnection")
            guard let session, capacity > 0 else { return false }
            writeHeaders(of: stream)
            let streamPointer = Unmanaged.passUnretained(stream).toOpaque()
            let streamID = headerBlock.withNameValues { nameValues, count -> Int32 in
                var provider = nghttp2_data_provider(
                    source: nghttp2_data_source(ptr: streamPointer), read_callback: NGHTTP2Callbacks.readBody)
                return nghttp2_submit_request(session, nil, nameValues, count, &provider, streamPointer)
            }
            guard streamID > 0 else {
                goingAway = true  // stream ids ran out: this connection is done
                return false
            }
            streams[streamID] = stream
            needsFlush = true
            return true
        }

        /// Fills the connection's reusable header block: a notification's headers are written from its
        /// fields (the order of ``APNsNotification/headers(token:)``), a generic request's copied. The path
        /// and the apns-id differ on every request, so they stay out of the HPACK table.
        private func writeHeaders(of stream: ClientStream) {
            let block = headerBlock
            if let delivery = stream.delivery, let shape = headerShape,
                shape.fits(delivery, authorization: stream.authorization, bodyLength: stream.requestBodyCount)
            {
                delivery.notification.deviceToken.withUTF8 { token in
                    block.rewriteValue(ofField: shape.pathField) { path in
                        (path.baseAddress! + 10).update(from: token.baseAddress!, count: token.count)
                    }
                }
                block.rewriteValue(ofField: shape.apnsIDField) {
                    _ = UUIDText.write(delivery.notification.apnsID, to: $0)
                }
                return
            }
            headerShape = nil
            block.removeAll()
            if let request = stream.http {
                block.add(":method", request.method)
            } else {
                block.add(":method", "POST")
            }
            block.add(":scheme", scheme)
            block.add(":authority", loop.authority)
            var variableFields: (path: Int, apnsID: Int)?
            if let request = stream.http {
                block.add(":path", request.path, indexed: false)
                for header in request.headers { block.add(header.name, header.value) }
            } else if let notification = stream.delivery?.notification {
                variableFields = (block.count, 0)
                notification.deviceToken.withUTF8 { token in
                    block.add(":path", maximumLength: 10 + token.count, indexed: false) { output in
                        let prefix: StaticString = "/3/device/"
                        output.baseAddress!.update(from: prefix.utf8Start, count: 10)
                        (output.baseAddress! + 10).update(from: token.baseAddress!, count: token.count)
                        return 10 + token.count
                    }
                }
                if let authorization = stream.authorization { block.add("authorization", authorization) }
                block.add("apns-topic", notification.topic)
                block.add("apns-push-type", notification.pushType.rawValue)
                variableFields?.apnsID = block.count
                block.add("apns-id", maximumLength: 36, indexed: false) { UUIDText.write(notification.apnsID, to: $0) }
                if let priority = notification.priority {
                    block.add("apns-priority", maximumLength: 20) { Self.writeDecimal(Int64(priority), to: $0) }
                }
                if let expiration = notification.expiration {
                    block.add("apns-expiration", maximumLength: 20) { Self.writeDecimal(expiration, to: $0) }
                }
                if let collapseID = notification.collapseID { block.add("apns-collapse-id", collapseID) }
            }
            let length = Int64(stream.requestBodyCount)
            block.add("content-length", maximumLength: 20) { Self.writeDecimal(length, to: $0) }
            if let notification = stream.delivery?.notification, let variableFields {
                headerShape = NotificationHeaderShape(
                    authorization: stream.authorization, topic: notification.topic, pushType: notification.pushType,
                    priority: notification.priority, expiration: notification.expiration,
                    collapseID: notification.collapseID, tokenLength: notification.deviceToken.hex.utf8.count,
                    bodyLength: Int(length), pathField: variableFields.path, apnsIDField: variableFields.apnsID)
            }
        }

        /// Writes `value` in decimal (a minus sign first when negative); returns the length.
        private static func writeDecimal(_ value: Int64, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var magnitude = value.magnitude
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch on the stack
            return withUnsafeMutableBytes(of: &digits) { scratch in
                var count = 0
                repeat {
                    scratch[23 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                var position = 0
                if value < 0 {
                    output[0] = 0x2D
                    position = 1
                }
                for index in 0..<count { output[position + index] = scratch[24 - count + index] }
                return position + count
            }
        }

        /// The stream the last header or data callback named: an answer's headers come one callback each, all
        /// for the same stream, so most of them need no table lookup. Unretained: it is in `streams`, which
        /// holds it, while it is here (it is forgotten as it leaves).
        @exclusivity(unchecked) private var recentStreamID: Int32 = 0
        @exclusivity(unchecked) private var recentStream: Unmanaged<ClientStream>?

        private func openStream(_ streamID: Int32) -> Unmanaged<ClientStream>? {
            if streamID == recentStreamID, let recentStream { return recentStream }
            recentStreamID = streamID
            recentStream = streams[streamID].map { Unmanaged.passUnretained($0) }
            return recentStream
        }

        func header(_ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            // At +0: a server sends several headers per answer, each would retain and release the stream.
            openStream(streamID)?._withUnsafeGuaranteedRef { stream in
                if NGHTTP2HeaderBlock.equals(name, ":status") {
                    var status = 0
                    for byte in value {
                        guard (0x30...0x39).contains(byte), status < 1000 else { break }
                        status = status * 10 + Int(byte - 0x30)
                    }
                    stream.status = status
                } else if stream.keepsHeaders {
                    stream.headers[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
                } else if NGHTTP2HeaderBlock.equals(name, "apns-unique-id") {
                    stream.uniqueID = String(decoding: value, as: UTF8.self)
                }
            }
        }

        func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
            openStream(streamID)?._withUnsafeGuaranteedRef { stream in
                if stream.body.count < 65_536 { stream.body.append(contentsOf: bytes) }
            }
        }

        func streamClosed(_ streamID: Int32, errorCode: UInt32) {
            if streamID == recentStreamID { recentStream = nil }
            guard let stream = streams.removeValue(forKey: streamID) else { return }
            closedSinceSubmit += 1
            defer {
                if goingAway && streams.isEmpty { needsFlush = true }
                loop.recycle(stream)  // nghttp2 and this connection are done with it
            }
            guard !stream.isFinished else { return }  // it timed out earlier
            if stream.status > 0 {
                stream.succeed()
            } else if errorCode == NGHTTP2_REFUSED_STREAM.rawValue {
                loop.requeue(stream, because: "the server refused the stream")  // not processed: safe to move
            } else {
                let name = String(cString: nghttp2_http2_strerror(errorCode))
                stream.fail("the server reset the stream (\(name))")
            }
        }

        func frameReceived(type: UInt32, flags: UInt8, streamID: Int32, goawayReason reason: String?) {
            let isAck = flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
            switch type {
            case NGHTTP2_SETTINGS.rawValue where !isAck: settingsReceived = true
            case NGHTTP2_GOAWAY.rawValue:
                goingAway = true
                goawayReason = reason
                loop.observers.report(.goaway(origin: loop.configuration.environment.origin, debugData: reason))
            case NGHTTP2_PING.rawValue where isAck: pingSentAt = nil
            default: break
            }
        }

        /// Copies the next part of a request body; the stream is the data source's pointer.
        func readBody(
            _ streamID: Int32, source: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>, length: Int
        ) -> (count: Int, finished: Bool) {
            guard let source else { return (0, true) }
            let stream = Unmanaged<ClientStream>.fromOpaque(source).takeUnretainedValue()
            let offset = stream.bodyOffset
            let (count, total) = stream.withRequestBody { bytes -> (Int, Int) in
                let count = min(length, bytes.count - offset)
                if count > 0 { buffer.update(from: bytes.baseAddress! + offset, count: count) }
                return (max(count, 0), bytes.count)
            }
            stream.bodyOffset = offset + count
            return (count, stream.bodyOffset >= total)
        }

        /// Cancels streams past their deadline and checks that an idle connection still answers PINGs.
        func checkTimers(now: Duration) {
            loop.ownership.check("ClientConnection")
            guard state != .closed else { return }
            if state != .ready {
                if let oldest = streams.values.map(\.deadline).min(), now >= oldest {
                    close("no connection to \(loop.configuration.environment.origin) in time")
                }
                return
            }
            guard let session else { return }
            var timedOut = false
            for (streamID, stream) in streams where !stream.isFinished && now >= stream.deadline {
                if silentSince(stream.deadline - stream.timeout) { inDoubt = true }
                stream.fail("no response within \(stream.timeout)")
                nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_CANCEL.rawValue)
                timedOut = true
            }
            let configuration = loop.configuration
            if let sent = pingSentAt {
                if now - sent > configuration.pingTimeout {
                    close("no answer to a PING within \(configuration.pingTimeout)")
                    return
                }
            } else if timedOut || now - lastReceived > configuration.pingInterval {
                // A stream that timed out may mean a dead connection; a PING tells.
                nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
                pingSentAt = now
            }
            if timedOut || pingSentAt == now { flush() }
        }

        /// Whether nothing arrived from the server since `start` (a timed-out request's start, on the loop's clock):
        /// the sign of a dead connection, where a slow one still answers other streams or its PINGs meanwhile.
        func silentSince(_ start: Duration) -> Bool { lastReceived <= start }

        /// Closes the socket. Streams still open are reported lost (`reason`), so the client retries them
        /// with the same `apns-id`; nil closes a drained connection quietly.
        func close(_ reason: String?) {
            loop.ownership.check("ClientConnection")
            guard state != .closed else { return }
            let wasReady = state == .ready
            state = .closed
            channel.close()
            let lost = streams.values.filter { !$0.isFinished }
            streams.removeAll()
            recentStream = nil
            // Before the handshake ended no byte of a request was written: those requests never reached APNs.
            let kind: APNsError.Kind = wasReady ? .transport : .unreachable
            for stream in lost { stream.fail("stream lost: \(reason ?? "the connection closed")", kind: kind) }
            loop.connectionClosed(self, wasReady: wasReady, reason: reason)
        }
    }
#endif
