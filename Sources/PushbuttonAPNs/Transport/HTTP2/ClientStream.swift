#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation

    /// One request on its way: waiting for a connection, then on a stream, until its response or failure.
    final class ClientStream {
        let request: HTTPRequest
        private var completion: (@Sendable (Result<HTTPResponse, APNsError>) -> Void)?
        let deadline: ContinuousClock.Instant
        var status = 0
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        /// How far the request body has been handed to nghttp2.
        var bodyOffset = 0
        /// Times the request was moved to another connection because a server did not process it.
        var moves = 0

        init(request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void) {
            self.request = request
            self.completion = completion
            deadline = .now + request.timeout
        }

        var isFinished: Bool { completion == nil }

        func succeed() {
            completion?(.success(HTTPResponse(status: status, headers: headers, body: body)))
            completion = nil
        }

        func fail(_ message: String, kind: APNsError.Kind = .transport) {
            completion?(.failure(APNsError(kind, message)))
            completion = nil
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
