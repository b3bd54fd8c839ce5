#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import Pushbutton

    /// One request on its way: waiting for a connection, then on a stream, until its response or failure.
    final class ClientStream {
        /// What to send: a generic request (``NGHTTP2Transport/send(_:)``) or a notification whose headers
        /// the connection writes itself (the client's path).
        enum Request {
            case http(HTTPRequest)
            case notification(APNsNotification, authorization: String?)
        }

        private enum Completion {
            case http(@Sendable (Result<HTTPResponse, APNsError>) -> Void)
            case notification(any NotificationResponseHandler)
        }

        private(set) var request: Request
        private var completion: Completion?
        private(set) var timeout: Duration
        private(set) var deadline: ContinuousClock.Instant
        var status = 0
        /// Every response header, kept only for generic requests.
        var headers: [String: String] = [:]
        /// `apns-unique-id`, the one header a notification's result reads.
        var uniqueID: String?
        var body: [UInt8] = []
        /// How far the request body has been handed to nghttp2.
        var bodyOffset = 0
        /// Times the request was moved to another connection because a server did not process it.
        var moves = 0

        init(request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void) {
            self.request = .http(request)
            self.completion = .http(completion)
            timeout = request.timeout
            deadline = .now + request.timeout
        }

        init(
            notification: APNsNotification, authorization: String?, timeout: Duration,
            handler: any NotificationResponseHandler
        ) {
            request = .notification(notification, authorization: authorization)
            completion = .notification(handler)
            self.timeout = timeout
            deadline = .now + timeout
        }

        /// Makes a finished stream of the loop's pool (see ``ClientLoop/recycle(_:)``) a new one for
        /// `notification`, as ``init(notification:authorization:timeout:handler:)`` would: a notification
        /// costs no stream allocation once the pool holds as many streams as are under way.
        func reuse(
            notification: APNsNotification, authorization: String?, timeout: Duration,
            handler: any NotificationResponseHandler
        ) {
            request = .notification(notification, authorization: authorization)
            completion = .notification(handler)
            self.timeout = timeout
            deadline = .now + timeout
            status = 0
            if !headers.isEmpty { headers = [:] }
            uniqueID = nil
            body.removeAll(keepingCapacity: true)
            bodyOffset = 0
            moves = 0
        }

        var isFinished: Bool { completion == nil }

        /// Whether every response header is kept (generic requests), or only `apns-unique-id`.
        var keepsHeaders: Bool {
            if case .http = request { return true }
            return false
        }

        var requestBody: [UInt8] {
            switch request {
            case .http(let request): return request.body
            case .notification(let notification, _): return notification.payload
            }
        }

        func succeed() {
            let completion = self.completion.take()  // before the handler runs: it may start the next request at once
            switch completion {
            case .http(let done): done(.success(HTTPResponse(status: status, headers: headers, body: body)))
            case .notification(let handler):
                // A 200 has no body to read: built directly, without the header dictionary of the general
                // reader (which escapes the same way).
                let response =
                    status == 200
                    ? APNsResponse(status: 200, uniqueID: uniqueID.map(TerminalText.escaped))
                    : APNsResponse(
                        status: status, headers: uniqueID.map { ["apns-unique-id": $0] } ?? [:], body: body)
                handler.received(.success(response))
            case nil: break
            }
        }

        func fail(_ message: String, kind: APNsError.Kind = .transport) {
            let error = APNsError(kind, message)
            let completion = self.completion.take()
            switch completion {
            case .http(let done): done(.failure(error))
            case .notification(let handler): handler.received(.failure(error))
            case nil: break
            }
        }

        /// Forgets a partial response before the request is sent again on another connection.
        func resetForRetry() {
            status = 0
            headers = [:]
            uniqueID = nil
            body = []
            bodyOffset = 0
            moves += 1
        }
    }
#endif
