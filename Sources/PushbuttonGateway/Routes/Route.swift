/// One line of the API's route table: a method, a path pattern and what answers it. A pattern's `{name}`
/// segment matches any one segment and is captured, in order; the method and pattern are the request's
/// metrics label, so labels stay a fixed set.
struct Route: Sendable {
    /// What a route's handler is given: the request, its captured segments, and the router (keys, services).
    struct Call {
        let request: HTTPRequest
        let captures: [String]
        let router: Router

        /// The app the first captured segment names, for a key of that app (a secret key when `secret`).
        func app(secret: Bool) throws(GatewayError) -> AppRuntime {
            try router.app(captures[0], for: try router.credential(request), secret: secret)
        }

        /// The request's secret key (a publishable key gets `403`).
        func secretCredential() throws(GatewayError) -> Credential { try router.secretCredential(request) }
    }

    let method: String
    let pattern: String
    private let parts: [String]
    let handler: @Sendable (Call) throws(GatewayError) -> HTTPResponse

    init(
        _ method: String, _ pattern: String, _ handler: @escaping @Sendable (Call) throws(GatewayError) -> HTTPResponse
    ) {
        self.method = method
        self.pattern = pattern
        self.parts = pattern.split(separator: "/").map(String.init)
        self.handler = handler
    }

    /// `GET /v1/notifications/{id}`.
    var label: String { Router.label(method, pattern) }

    /// The captured segments when `segments` match the pattern (whatever the method), else nil.
    func captures(_ segments: [String]) -> [String]? {
        guard parts.count == segments.count else { return nil }
        var captured: [String] = []
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix("{") && part.hasSuffix("}") {
                captured.append(segment)
            } else if part != segment {
                return nil
            }
        }
        return captured
    }

    /// The device token a route's `{token}` segment captured (registration, tags), for the per-device rate limit.
    static func deviceToken(pattern: String, captures: [String]) -> String? {
        let names = pattern.split(separator: "/").filter { $0.hasPrefix("{") }
        guard let index = names.firstIndex(of: "{token}"), index < captures.count else { return nil }
        // Lowercased, as the store keeps tokens: a token in capitals is the same device's bucket.
        return captures[index].lowercased()
    }

    /// Whether the route answers `method`: a `GET` route answers `HEAD` too.
    func answers(_ method: String) -> Bool { method == self.method || (method == "HEAD" && self.method == "GET") }
}
