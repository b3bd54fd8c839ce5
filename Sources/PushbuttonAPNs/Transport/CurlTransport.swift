#if canImport(CCurl)
    import Foundation
    import Pushbutton
    internal import CCurl

    /// HTTP/2 to APNs through libcurl's multi interface (libcurl4-openssl-dev).
    ///
    /// One thread owns the multi handle and drives every transfer; `send` hands a request over through a
    /// locked queue and `curl_multi_wakeup`, and is resumed when the transfer ends. Streams are multiplexed
    /// over at most ``Configuration/connections`` connections; libcurl honours each connection's
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` (1 on APNs until the first authenticated request) and replaces a
    /// connection that received GOAWAY; a request whose stream was lost fails with a transport error, which
    /// the client retries with the same `apns-id`. Certificate verification is always on.
    ///
    /// `@unchecked Sendable`: the multi handle and the transfers are only touched by the transport's thread;
    /// the queue between callers and that thread is behind `lock`.
    public final class CurlTransport: APNsTransport, @unchecked Sendable {
        /// How the transport connects.
        public typealias Configuration = TransportConfiguration

        /// One transfer's state, reached from libcurl's callbacks through its opaque pointer.
        final class Transfer {
            let request: HTTPRequest
            let continuation: CheckedContinuation<HTTPResponse, any Error>
            var responseHeaders: [String: String] = [:]
            var responseBody: [UInt8] = []
            var headerList: UnsafeMutablePointer<curl_slist>?

            init(request: HTTPRequest, continuation: CheckedContinuation<HTTPResponse, any Error>) {
                self.request = request
                self.continuation = continuation
            }
        }

        public let configuration: Configuration
        private let multi: UnsafeMutableRawPointer
        private let lock = NSLock()
        private var queued: [Transfer] = []
        private var accepting = true
        private var stopped = false
        private var active: [UnsafeMutableRawPointer: Transfer] = [:]
        private let finished = ThreadExit()
        private static let globalInit: Void = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

        /// libcurl before 8.0 fails every request after the first on a reused h2c (prior-knowledge)
        /// connection with "Error in the HTTP2 framing layer" (curl issue 10634, fixed by pull request 10643).
        /// TLS with ALPN, what APNs uses, is not affected; for h2c each request gets its own connection there.
        static let h2cReuseIsBroken: Bool = {
            guard let info = pushbutton_curl_version_info() else { return true }
            return info.pointee.version_num < 0x08_00_00
        }()

        public init(_ configuration: Configuration) throws(APNsError) {
            _ = Self.globalInit
            guard let multi = curl_multi_init() else {
                throw APNsError(.transport, "libcurl could not create a multi handle")
            }
            self.configuration = configuration
            self.multi = multi
            pushbutton_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            pushbutton_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.connections)
            pushbutton_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.connections)
            pushbutton_curl_multi_setopt_long(
                multi, CURLMOPT_MAX_CONCURRENT_STREAMS, configuration.maximumStreamsPerConnection)
            let thread = Thread { [self] in run() }
            thread.name = "pushbutton.apns.curl"
            thread.start()
        }

        deinit {
            curl_multi_cleanup(multi)
        }

        public func send(_ request: HTTPRequest) async throws(APNsError) -> HTTPResponse {
            do {
                return try await withCheckedThrowingContinuation { continuation in
                    let transfer = Transfer(request: request, continuation: continuation)
                    let accepted = lock.withLock { () -> Bool in
                        guard accepting else { return false }
                        queued.append(transfer)
                        return true
                    }
                    guard accepted else {
                        continuation.resume(throwing: APNsError(.shutDown, "the sender is shut down"))
                        return
                    }
                    curl_multi_wakeup(multi)
                }
            } catch let error as APNsError {
                throw error
            } catch {
                throw APNsError(.transport, "\(error)")
            }
        }

        public func shutdown() async {
            let alreadyStopped = lock.withLock { () -> Bool in
                defer { accepting = false }
                return !accepting
            }
            curl_multi_wakeup(multi)
            guard !alreadyStopped else { return }
            await finished.wait()
        }

        // MARK: The transport's thread

        private func run() {
            while true {
                let (incoming, open) = lock.withLock { () -> ([Transfer], Bool) in
                    defer { queued.removeAll() }
                    return (queued, accepting)
                }
                for transfer in incoming { start(transfer) }
                if !open && active.isEmpty && lock.withLock({ queued.isEmpty }) { break }
                var running: Int32 = 0
                curl_multi_perform(multi, &running)
                collectFinished()
                curl_multi_poll(multi, nil, 0, 50, nil)
            }
            finished.signal()
        }

        private func start(_ transfer: Transfer) {
            guard let easy = curl_easy_init() else {
                transfer.continuation.resume(throwing: APNsError(.transport, "libcurl could not create a transfer"))
                return
            }
            let environment = configuration.environment
            let request = transfer.request
            pushbutton_curl_easy_setopt_string(easy, CURLOPT_URL, environment.origin + request.path)
            pushbutton_curl_easy_setopt_long(
                easy, CURLOPT_HTTP_VERSION,
                environment.cleartext ? Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE) : Int(CURL_HTTP_VERSION_2TLS))
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            // Idle connections are probed (TCP keep-alive), so a silently dropped one is noticed and replaced.
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPIDLE, 60)
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_TCP_KEEPINTVL, 30)
            if Self.h2cReuseIsBroken && environment.cleartext {
                pushbutton_curl_easy_setopt_long(easy, CURLOPT_FORBID_REUSE, 1)
            }
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_POST, 1)
            pushbutton_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            request.body.withUnsafeBufferPointer { buffer in
                _ = buffer.baseAddress.map {
                    pushbutton_curl_easy_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0))
                }
            }
            pushbutton_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.timeout.milliseconds)
            if let caFile = environment.caFile { pushbutton_curl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile) }
            if let certificate = configuration.clientCertificate {
                pushbutton_curl_easy_setopt_string(easy, CURLOPT_SSLCERT, certificate.certificate)
                pushbutton_curl_easy_setopt_string(easy, CURLOPT_SSLKEY, certificate.key)
            }
            var list: UnsafeMutablePointer<curl_slist>?
            for header in request.headers { list = curl_slist_append(list, "\(header.name): \(header.value)") }
            list = curl_slist_append(list, "content-type: application/json")
            transfer.headerList = list
            pushbutton_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list)
            let context = Unmanaged.passUnretained(transfer).toOpaque()
            pushbutton_curl_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION, Self.bodyCallback)
            pushbutton_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
            pushbutton_curl_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION, Self.headerCallback)
            pushbutton_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
            active[easy] = transfer
            curl_multi_add_handle(multi, easy)
        }

        private func collectFinished() {
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                guard let transfer = active.removeValue(forKey: easy) else { continue }
                var status = 0
                pushbutton_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
                curl_multi_remove_handle(multi, easy)
                curl_easy_cleanup(easy)
                curl_slist_free_all(transfer.headerList)
                if code == CURLE_OK && status > 0 {
                    transfer.continuation.resume(
                        returning: HTTPResponse(
                            status: status, headers: transfer.responseHeaders, body: transfer.responseBody))
                } else {
                    let reason = String(cString: curl_easy_strerror(code))
                    transfer.continuation.resume(
                        throwing: APNsError(.transport, "stream lost: \(reason) (libcurl \(code.rawValue))"))
                }
            }
        }

        private static let bodyCallback: pushbutton_curl_data_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            data.withMemoryRebound(to: UInt8.self, capacity: length) {
                transfer.responseBody.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
            }
            return length
        }

        private static let headerCallback: pushbutton_curl_data_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let length = size * count
            let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            }
            if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                transfer.responseHeaders[name] = value
            }
            return length
        }
    }
#endif
