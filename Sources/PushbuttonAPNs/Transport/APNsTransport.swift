/// Moves requests to APNs and back. The client adds authentication, retries and results on top.
public protocol APNsTransport: Sendable {
    /// Sends one request. Throws ``APNsError`` of kind `transport` when the stream was lost (a GOAWAY, a
    /// dropped connection, a timeout): such requests are safe to retry with the same `apns-id`.
    func send(_ request: HTTPRequest) async throws(APNsError) -> HTTPResponse
    /// Sends one request and calls `completion` once with its outcome, on whichever thread the transport
    /// likes: the bulk sender's path, which costs no task per request.
    func submit(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void)
    /// Finishes what is in flight, then closes the connections.
    func shutdown() async
}

extension APNsTransport {
    /// A task per request, for transports without a callback path of their own.
    public func submit(
        _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, APNsError>) -> Void
    ) {
        Task {
            do throws(APNsError) {
                completion(.success(try await send(request)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
