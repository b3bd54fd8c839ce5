/// One request as the mock received it: what APNs would look at.
public struct MockRequest: Sendable {
    /// The `:method`.
    public var method: String
    /// The `:path`, e.g. `/3/device/<token>`.
    public var path: String
    /// Header names in lowercase, in arrival order, repeated names kept (APNs rejects duplicates).
    public var headers: [(name: String, value: String)]
    /// The request body.
    public var body: [UInt8]

    /// A request as received.
    public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The first value of a header (names are compared in lowercase).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
