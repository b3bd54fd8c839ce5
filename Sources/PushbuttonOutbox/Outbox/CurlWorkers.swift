#if canImport(CCurl)
    import Foundation
    internal import CCurl

    /// The threads behind ``CurlSender``: each owns one libcurl easy handle (and so its kept-alive connection)
    /// and performs the queued requests one at a time, blocking only itself, never Swift's task pool.
    ///
    /// `@unchecked Sendable`: the queue and the stop flag are only touched with `condition` locked; each
    /// handle is confined to the thread that created it.
    final class CurlWorkers: @unchecked Sendable {
        /// Stops the threads when the last ``CurlSender`` holding it goes (the threads keep the workers alive).
        final class Owner: Sendable {
            let workers: CurlWorkers
            init(_ workers: CurlWorkers) { self.workers = workers }
            deinit { workers.stop() }
        }

        private struct Job {
            let request: OutgoingRequest
            let continuation: CheckedContinuation<Int, any Error>
        }

        private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
        private let condition = NSCondition()
        private var jobs: [Job] = []
        private var stopping = false
        private let timeoutMilliseconds: Int
        private let proxy: CurlProxy

        init(count: Int, timeoutMilliseconds: Int, proxy: CurlProxy = .environment) {
            self.timeoutMilliseconds = timeoutMilliseconds
            self.proxy = proxy
            _ = Self.initialised
            for index in 0..<count {
                let thread = Thread { [self] in work() }
                thread.name = "pushbutton-outbox-curl-\(index)"
                thread.start()
            }
        }

        func perform(_ request: OutgoingRequest) async throws -> Int {
            try await withCheckedThrowingContinuation { continuation in
                condition.lock()
                defer { condition.unlock() }
                guard !stopping else {
                    continuation.resume(throwing: CurlSender.Failure("the sender was stopped"))
                    return
                }
                jobs.append(Job(request: request, continuation: continuation))
                condition.signal()
            }
        }

        func stop() {
            condition.lock()
            stopping = true
            condition.broadcast()
            condition.unlock()
        }

        private func next() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while jobs.isEmpty && !stopping { condition.wait() }
            return jobs.isEmpty ? nil : jobs.removeFirst()
        }

        private func work() {
            let handle = curl_easy_init()
            // libcurl's detailed message for the handle's last failure is written here.
            let errorBuffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0)
            defer {
                curl_easy_cleanup(handle)
                errorBuffer.deallocate()
            }
            while let job = next() {
                guard let handle else {
                    job.continuation.resume(throwing: CurlSender.Failure("libcurl could not make a handle"))
                    continue
                }
                job.continuation.resume(with: Result { try perform(job.request, on: handle, errorBuffer: errorBuffer) })
            }
        }

        /// One request on the thread's handle; options are reset each time, the connection is kept.
        private func perform(
            _ request: OutgoingRequest, on handle: UnsafeMutableRawPointer,
            errorBuffer: UnsafeMutableBufferPointer<CChar>
        ) throws -> Int {
            curl_easy_reset(handle)
            var headers: UnsafeMutablePointer<curl_slist>?
            for (name, value) in request.headers { headers = curl_slist_append(headers, "\(name): \(value)") }
            // No "Expect: 100-continue" round trip before a larger body.
            headers = curl_slist_append(headers, "Expect:")
            defer { curl_slist_free_all(headers) }
            try check(pushbutton_curl_set_string(handle, CURLOPT_URL, request.url), request)
            try check(pushbutton_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), request)
            try check(pushbutton_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method), request)
            try check(pushbutton_curl_set_long(handle, CURLOPT_NOSIGNAL, 1), request)
            try check(pushbutton_curl_set_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds), request)
            try check(pushbutton_curl_set_headers(handle, headers), request)
            try check(pushbutton_curl_discard_body(handle), request)
            try setProxy(on: handle, request)
            errorBuffer[0] = 0
            try check(pushbutton_curl_set_error_buffer(handle, errorBuffer.baseAddress), request)
            let body = request.body ?? Data()
            return try body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Int in
                // A body pointer of NULL would make libcurl read one from a callback: an empty body gets "".
                try withUnsafeBytes(of: UInt8(0)) { empty in
                    if request.body != nil || request.method != "GET" {
                        let start = bytes.count > 0 ? bytes.baseAddress : empty.baseAddress
                        try check(pushbutton_curl_set_body(handle, start, curl_off_t(bytes.count)), request)
                    }
                    let code = curl_easy_perform(handle)
                    if code != CURLE_OK { throw failure(code, request, on: handle, detail: errorBuffer) }
                    return Int(pushbutton_curl_response_code(handle))
                }
            }
        }

        private func check(_ code: CURLcode, _ request: OutgoingRequest) throws {
            guard code != CURLE_OK else { return }
            throw CurlSender.Failure("\(request.method) \(request.url): \(String(cString: curl_easy_strerror(code)))")
        }

        /// A given proxy tunnels every request with CONNECT; `.direct` overrides the environment's.
        private func setProxy(on handle: UnsafeMutableRawPointer, _ request: OutgoingRequest) throws {
            switch proxy {
            case .environment: return
            case .direct:
                try check(pushbutton_curl_set_string(handle, CURLOPT_PROXY, ""), request)
            case .http(let url, let bypass):
                try check(pushbutton_curl_set_string(handle, CURLOPT_PROXY, url), request)
                try check(pushbutton_curl_set_string(handle, CURLOPT_NOPROXY, bypass.joined(separator: ",")), request)
                try check(pushbutton_curl_set_long(handle, CURLOPT_HTTPPROXYTUNNEL, 1), request)
            }
        }

        /// What failed, with the proxy's part named when there is one; the proxy's credentials never appear.
        private func failure(
            _ code: CURLcode, _ request: OutgoingRequest, on handle: UnsafeMutableRawPointer,
            detail errorBuffer: UnsafeMutableBufferPointer<CChar>
        ) -> CurlSender.Failure {
            var detail = String(cString: errorBuffer.baseAddress!)
            if detail.isEmpty { detail = String(cString: curl_easy_strerror(code)) }
            if let userinfo = proxy.userinfo { detail = detail.replacingOccurrences(of: userinfo, with: "***") }
            guard case .http = proxy else { return CurlSender.Failure("\(request.method) \(request.url): \(detail)") }
            let connectCode = pushbutton_curl_connect_code(handle)
            let through = "through the proxy \(proxy)"
            switch connectCode {
            case 407:
                return CurlSender.Failure(
                    "\(request.method) \(request.url): the proxy \(proxy) answered CONNECT with 407 (it wants "
                        + "credentials, or refused those given: put them in the proxy URL, http://user:password@host:port)"
                )
            case 300...:
                return CurlSender.Failure(
                    "\(request.method) \(request.url): the proxy \(proxy) refused the tunnel with \(connectCode)")
            default:
                if code == CURLE_COULDNT_RESOLVE_PROXY || (code == CURLE_COULDNT_CONNECT && connectCode == 0) {
                    return CurlSender.Failure(
                        "\(request.method) \(request.url): cannot reach the proxy \(proxy): \(detail)")
                }
                return CurlSender.Failure("\(request.method) \(request.url) (\(through)): \(detail)")
            }
        }
    }
#endif
