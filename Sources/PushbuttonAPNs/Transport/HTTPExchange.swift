import Pushbutton

/// One HTTP/2 request to APNs, as the transport sees it.
public struct HTTPRequest: Sendable {
    /// `:method`: `POST` for notifications and broadcasts; channel management also uses `GET` and `DELETE`.
    public var method: String
    /// `:path`, e.g. `/3/device/<token>`.
    public var path: String
    /// Header fields, in order, names lowercase (HTTP/2 requires it).
    public var headers: [(name: String, value: String)]
    /// The request body (the payload's JSON bytes).
    public var body: [UInt8]
    /// How long the response may take before the stream is abandoned (and retried).
    public var timeout: Duration

    /// A request; check ``headerProblem`` before sending one built from outside input.
    public init(
        method: String = "POST", path: String, headers: [(name: String, value: String)], body: [UInt8],
        timeout: Duration
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

extension HTTPRequest {
    /// Why the request cannot be sent as it is, or `nil`: every transport refuses a request whose header
    /// names or values could smuggle another header (CR, LF, NUL, …), whatever built them.
    public var headerProblem: String? {
        guard !method.isEmpty, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            return "the method '\(method.debugDescription.dropFirst().dropLast())' is not an uppercase HTTP method"
        }
        for (name, value) in headers {
            guard HeaderField.isValidName(name), name == name.lowercased() else {
                return "the header name '\(name.debugDescription.dropFirst().dropLast())' is not a lowercase HTTP token"
            }
            if let problem = HeaderField.problem(name: name, value: value) { return problem }
        }
        return nil
    }
}

/// APNs' answer, as the transport received it.
public struct HTTPResponse: Sendable, Hashable {
    /// The `:status`.
    public var status: Int
    /// Header names in lowercase.
    public var headers: [String: String]
    /// The response body: empty on success, `{"reason": …}` on an error.
    public var body: [UInt8]

    /// A response as received.
    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
