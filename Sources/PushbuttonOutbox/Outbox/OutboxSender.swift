import Foundation
import Pushbutton

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request the delivery worker makes.
public struct OutgoingRequest: Sendable, Hashable {
    public var url: String
    public var method: String
    /// Always includes `Idempotency-Key`; `Content-Type: application/json` when there is a body.
    public var headers: [String: String]
    public var body: Data?
}

/// Sends the outbox's requests; the app may supply its own (its API client, with its authentication).
public protocol OutboxSender: Sendable {
    /// Sends `request` and returns the HTTP status. Throw for network failures (they are retried).
    func send(_ request: OutgoingRequest) async throws -> Int
}

/// The default sender: an HTTP request with Foundation's `URLSession`.
public struct URLSessionSender: OutboxSender {
    public let timeout: Duration

    public init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
    }

    public func send(_ request: OutgoingRequest) async throws -> Int {
        guard let url = URL(string: request.url) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout.seconds)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let (_, response) = try await URLSession.shared.data(for: urlRequest)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
