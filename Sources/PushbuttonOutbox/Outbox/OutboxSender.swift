import Foundation
import Pushbutton
import PushbuttonSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request the delivery worker makes.
public struct OutgoingRequest: Sendable, Hashable {
    /// The absolute URL, as the entry stored it.
    public var url: String
    /// The HTTP method, e.g. `POST` or `PUT`.
    public var method: String
    /// Always includes `Idempotency-Key`; `Content-Type: application/json` when there is a body.
    public var headers: [String: String]
    /// The entry's body bytes (JSON), or `nil` for a request without one.
    public var body: Data?

    /// A request as a sender receives it (other queues, such as the gateway's webhook, build their own).
    public init(url: String, method: String, headers: [String: String], body: Data?) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// Sends the outbox's requests; the app may supply its own (its API client, with its authentication).
public protocol OutboxSender: Sendable {
    /// Sends `request` and returns the HTTP status. Throw for network failures (they are retried).
    func send(_ request: OutgoingRequest) async throws -> Int
}

/// The default sender: an HTTP request with Foundation's `URLSession`, which never follows a redirect.
///
/// A redirect's status is returned as it is (the outbox retries it, then dead-letters it): following it
/// would turn a `302` into a `GET` whose `200` is no acknowledgement of the tap, or re-post a `307`
/// somewhere the app did not choose. Header values with control characters are refused, not dropped.
public struct URLSessionSender: OutboxSender {
    /// How long one request may take before it fails (and is retried).
    public let timeout: Duration
    private let session: URLSession

    /// A sender on an ephemeral session that refuses redirects.
    public init(timeout: Duration = .seconds(30)) {
        self.timeout = timeout
        // No cache: nothing here is cached, and on Linux (FoundationNetworking) cancelling a task of a session with
        // a `URLCache` can trap the process ("a behaviour for a task that in not in the registry").
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// Sends `request` and returns the HTTP status; a redirect's status comes back as is.
    ///
    /// - Throws: `URLError` for a bad URL or a network failure, an error naming the problem for a header value with control
    ///   characters.
    public func send(_ request: OutgoingRequest) async throws -> Int {
        guard let url = URL(string: request.url) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout.seconds)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            if let problem = HeaderField.problem(name: name, value: value) { throw SenderError(problem) }
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (_, response) = try await session.data(for: urlRequest)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    struct SenderError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// Answers every redirect with "do not follow", so the redirect's own response is the result.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
