#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation

    /// One request on its way: waiting for a connection, then on a stream, until its response or failure.
    final class ClientStream {
        let request: HTTPRequest
        private var continuation: CheckedContinuation<HTTPResponse, any Error>?
        let deadline: ContinuousClock.Instant
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        /// How far the request body has been handed to nghttp2.
        var bodyOffset = 0
        /// Times the request was moved to another connection because a server did not process it.
        var moves = 0

        init(request: HTTPRequest, continuation: CheckedContinuation<HTTPResponse, any Error>) {
            self.request = request
            self.continuation = continuation
            deadline = .now + request.timeout
        }

        var isFinished: Bool { continuation == nil }

        func succeed() {
            continuation?.resume(returning: HTTPResponse(status: status, headers: headers, body: body))
            continuation = nil
        }

        func fail(_ message: String, kind: APNsError.Kind = .transport) {
            continuation?.resume(throwing: APNsError(kind, message))
            continuation = nil
        }

        /// Forgets a partial response before the request is sent again on another connection.
        func resetForRetry() {
            status = 0
            headers = [:]
            body = []
            bodyOffset = 0
            moves += 1
        }
    }
#endif
