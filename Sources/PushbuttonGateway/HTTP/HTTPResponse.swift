import Pushbutton

/// What a route answers: a status, headers (lowercase names) and a body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON body (compact, keys sorted by the writer).
    public static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        var body = JSONWriter.compact(value)
        body.append(0x0A)
        return HTTPResponse(status: status, headers: [("content-type", "application/json")], body: body)
    }

    /// A plain-text body.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8")
        -> HTTPResponse
    {
        HTTPResponse(status: status, headers: [("content-type", contentType)], body: Array(text.utf8))
    }

    /// The header's value, by lowercase name.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
}
