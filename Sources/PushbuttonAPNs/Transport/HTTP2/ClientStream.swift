#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import Pushbutton

    /// One request on its way: waiting for a connection, then on a stream, until its response or failure.
    ///
    /// A notification's stream refers to its ``Delivery`` and reads the notification there (headers, body)
    /// instead of holding a copy: a copy of an ``APNsNotification`` costs a retain and a release of each of
    /// its strings and of its payload, per attempt, on the loop's thread. The delivery keeps its notification
    /// while an attempt is under way, and the stream lets go of the delivery as it finishes.
    ///
    /// Used only on the loop's thread once enqueued (checked by `ThreadOwnership` in debug builds), so the hot
    /// stored properties skip the runtime's exclusivity checks.
    final class ClientStream {
        /// A generic request (``NGHTTP2Transport/send(_:)``), nil for a notification.
        @exclusivity(unchecked) private(set) var http: HTTPRequest?
        @exclusivity(unchecked) private var httpCompletion: (@Sendable (Result<HTTPResponse, APNsError>) -> Void)?
        /// The delivery whose notification this stream sends, which hears the outcome: nil for a generic
        /// request, and once the stream finished.
        @exclusivity(unchecked) private(set) var delivery: Delivery?
        /// The whole `authorization` value of a notification's request, nil for certificate authentication.
        @exclusivity(unchecked) private(set) var authorization: String?
        /// Whether the stream carries a notification (kept once finished, for the loop's pool).
        let isNotification: Bool
        @exclusivity(unchecked) private(set) var isFinished = false
        @exclusivity(unchecked) private(set) var timeout: Duration
        /// On the loop's clock (``ClientLoop/now()``).
        @exclusivity(unchecked) private(set) var deadline: Duration
        @exclusivity(unchecked) var status = 0
        /// Every response header, kept only for generic requests.
        var headers: [String: String] = [:]
        /// `apns-unique-id`, the one header a notification's result reads.
        @exclusivity(unchecked) var uniqueID: String?
        @exclusivity(unchecked) var body: [UInt8] = []
        /// How far the request body has been handed to nghttp2.
        @exclusivity(unchecked) var bodyOffset = 0
        /// Times the request was moved to another connection because a server did not process it.
        var moves = 0

        init(
            request: HTTPRequest, now: Duration,
            completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void
        ) {
            http = request
            httpCompletion = completion
            isNotification = false
            timeout = request.timeout
            deadline = now + request.timeout
        }

        init(delivery: Delivery, authorization: String?, timeout: Duration, now: Duration) {
            self.delivery = delivery
            self.authorization = authorization
            isNotification = true
            self.timeout = timeout
            deadline = now + timeout
        }

        /// Makes a finished notification stream of the loop's pool (see ``ClientLoop/recycle(_:)``) a new one
        /// for `delivery`, as ``init(delivery:authorization:timeout:now:)`` would: a notification costs no stream
        /// allocation once the pool holds as many streams as are under way.
        func reuse(delivery: Delivery, authorization: String?, timeout: Duration, now: Duration) {
            self.delivery = delivery
            // The same token on every request of a bulk send: assigned only when it changed (no retain and
            // release of the same string).
            if !Self.same(self.authorization, authorization) { self.authorization = authorization }
            isFinished = false
            if self.timeout != timeout { self.timeout = timeout }
            deadline = now + timeout
            status = 0
            if !headers.isEmpty { headers = [:] }
            if uniqueID != nil { uniqueID = nil }
            if !body.isEmpty { body.removeAll(keepingCapacity: true) }
            bodyOffset = 0
            moves = 0
        }

        /// Whether every response header is kept (generic requests), or only `apns-unique-id`.
        var keepsHeaders: Bool { !isNotification }

        /// Calls `body` with the request body's bytes (empty once a notification's stream finished: its
        /// delivery may already carry the next notification).
        func withRequestBody<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            if let delivery { return delivery.notification.payload.withUnsafeBufferPointer(body) }
            if let http { return http.body.withUnsafeBufferPointer(body) }
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }

        /// The request body's length.
        var requestBodyCount: Int {
            if let delivery { return delivery.notification.payload.count }
            return http?.body.count ?? 0
        }

        func succeed() {
            guard !isFinished else { return }
            isFinished = true
            // Taken before the handler runs: it may start the next request at once.
            if let delivery = delivery.take() {
                // A 200 has no body to read: built directly, without the header dictionary of the general
                // reader (which escapes the same way).
                let response =
                    status == 200
                    ? APNsResponse(status: 200, uniqueID: uniqueID.map(TerminalText.escaped))
                    : APNsResponse(
                        status: status, headers: uniqueID.map { ["apns-unique-id": $0] } ?? [:], body: body)
                delivery.received(.success(response))
            } else if let done = httpCompletion.take() {
                done(.success(HTTPResponse(status: status, headers: headers, body: body)))
            }
        }

        func fail(_ message: String, kind: APNsError.Kind = .transport) {
            guard !isFinished else { return }
            isFinished = true
            let error = APNsError(kind, message)
            if let delivery = delivery.take() {
                delivery.received(.failure(error))
            } else if let done = httpCompletion.take() {
                done(.failure(error))
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

        /// Whether two optional strings are equal (`==` compares the storage first: a bulk send's one token
        /// string costs no byte comparison).
        private static func same(_ first: String?, _ second: String?) -> Bool {
            switch (first, second) {
            case (nil, nil): return true
            case (let first?, let second?): return first == second
            default: return false
            }
        }
    }
#endif
