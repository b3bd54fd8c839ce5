#if !os(tvOS)
    import Foundation
    import PushbuttonSupport
    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// ``MediaDownloading`` over `URLSession`: an ephemeral session per download (no cache, no cookies), a data task
    /// whose delegate refuses a `Content-Length` over the limit, cancels the task as soon as the bytes pass it,
    /// counts redirects and refuses one to plain `http:`. Its own timeout is a backstop: the extension's budget
    /// cancels it first.
    public struct URLSessionMediaDownloader: MediaDownloading {
        /// Redirects followed, at most.
        public var maximumRedirects: Int
        /// The session's request and resource timeout, in seconds.
        public var timeout: TimeInterval

        /// A downloader following up to `maximumRedirects` redirects, giving up after `timeout` seconds.
        public init(maximumRedirects: Int = 5, timeout: TimeInterval = 25) {
            self.maximumRedirects = maximumRedirects
            self.timeout = timeout
        }

        /// Downloads `url` (see ``MediaDownloading/data(from:limit:allowsHTTP:)``).
        public func data(from url: URL, limit: Int, allowsHTTP: Bool) async throws(MediaFailure) -> [UInt8] {
            let delegate = MediaTaskDelegate(limit: limit, maximumRedirects: maximumRedirects, allowsHTTP: allowsHTTP)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout
            // No cache (a media file is downloaded once); on Linux a cancelled task of a session with a `URLCache` can
            // trap the process (FoundationNetworking's task registry).
            configuration.urlCache = nil
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
            // Every way the download ends has cancelled or completed its task by now (a refused response, a body
            // over the limit, a refused redirect, the deadline): `invalidateAndCancel` would cancel it a second
            // time, and on Linux FoundationNetworking's second cancel can find the task gone from its registry and
            // trap the process ("a behaviour for a task that in not in the registry"; once in 5 runs of make test).
            defer { session.finishTasksAndInvalidate() }
            let task = session.dataTask(with: url)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in delegate.start(task, continuation) }
            } onCancel: {
                delegate.finish(.failure(.timedOut))
                task.cancel()
            }
            return try result.get()
        }
    }

    /// One download's state, fed by the session's delegate callbacks; it finishes once.
    ///
    /// `@unchecked Sendable`: the session calls it on its delegate queue and the cancellation handler on any
    /// thread; its state is behind ``Locked``.
    final class MediaTaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<[UInt8], MediaFailure>, Never>?
            var early: Result<[UInt8], MediaFailure>?
            var bytes: [UInt8] = []
            var redirects = 0
            var status = 0
        }

        private let limit: Int
        private let maximumRedirects: Int
        private let allowsHTTP: Bool
        private let state = Locked(State())

        init(limit: Int, maximumRedirects: Int, allowsHTTP: Bool) {
            self.limit = limit
            self.maximumRedirects = maximumRedirects
            self.allowsHTTP = allowsHTTP
        }

        func start(
            _ task: URLSessionDataTask, _ continuation: CheckedContinuation<Result<[UInt8], MediaFailure>, Never>
        ) {
            let early = state.withLock { state -> Result<[UInt8], MediaFailure>? in
                if let early = state.early { return early }
                state.continuation = continuation
                return nil
            }
            if let early {
                continuation.resume(returning: early)
            } else {
                task.resume()
            }
        }

        /// Ends the download with `result` unless it has ended.
        func finish(_ result: Result<[UInt8], MediaFailure>) {
            let continuation = state.withLock { state -> CheckedContinuation<Result<[UInt8], MediaFailure>, Never>? in
                guard state.early == nil else { return nil }
                state.early = result
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume(returning: result)
        }

        // Apple's SDK marks the completion handlers `@Sendable`, FoundationNetworking does not: a witness of the other
        // shape would only nearly match the optional requirement and never be called.
        #if canImport(FoundationNetworking)
            func urlSession(
                _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
            ) { received(response, completionHandler) }

            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
            ) { redirect(task, to: request, completionHandler) }
        #else
            func urlSession(
                _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
            ) { received(response, completionHandler) }

            func urlSession(
                _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
            ) { redirect(task, to: request, completionHandler) }
        #endif

        /// Refuses an error status or a declared length over the limit before any of the body is read.
        private func received(_ response: URLResponse, _ completionHandler: (URLSession.ResponseDisposition) -> Void) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 200
            state.withLock { $0.status = status }
            if !(200..<300).contains(status) {
                finish(.failure(status >= 300 && status < 400 ? .tooManyRedirects : .httpStatus(status)))
                completionHandler(.cancel)
            } else if response.expectedContentLength > Int64(limit) {
                finish(.failure(.tooLarge(limit: limit)))
                completionHandler(.cancel)
            } else {
                completionHandler(.allow)
            }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = state.withLock { state -> Bool in
                guard state.early == nil else { return false }
                state.bytes.append(contentsOf: data)
                return state.bytes.count > limit
            }
            if over {
                finish(.failure(.tooLarge(limit: limit)))
                dataTask.cancel()
            }
        }

        /// Follows a redirect while there are few and it stays on https (or allowed http).
        private func redirect(
            _ task: URLSessionTask, to request: URLRequest, _ completionHandler: (URLRequest?) -> Void
        ) {
            let count = state.withLock { state -> Int in
                state.redirects += 1
                return state.redirects
            }
            let scheme = request.url?.scheme?.lowercased()
            if count > maximumRedirects {
                finish(.failure(.tooManyRedirects))
                completionHandler(nil)
                task.cancel()
            } else if scheme != "https" && !(allowsHTTP && scheme == "http") {
                finish(.failure(.insecureURL(request.url?.absoluteString ?? "")))
                completionHandler(nil)
                task.cancel()
            } else {
                completionHandler(request)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let error else {
                finish(.success(state.withLock { $0.bytes }))
                return
            }
            finish(.failure(Self.failure(error)))
        }

        /// The failure a session error stands for.
        static func failure(_ error: any Error) -> MediaFailure {
            let code = (error as? URLError)?.code ?? URLError.Code(rawValue: (error as NSError).code)
            switch code {
            case .timedOut: return .timedOut
            case .httpTooManyRedirects, .redirectToNonExistentLocation: return .tooManyRedirects
            case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
                .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
                .clientCertificateRequired:
                return .tls(error.localizedDescription)
            case .dataLengthExceedsMaximum: return .tooLarge(limit: 0)
            default:
                // FoundationNetworking reports a failed handshake (libcurl's SSL errors) under a generic code,
                // with OpenSSL's message.
                let message = error.localizedDescription
                return message.contains("SSL") || message.contains("TLS") ? .tls(message) : .network(message)
            }
        }
    }
#endif
