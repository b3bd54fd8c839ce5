/// What the mock answers to one request, before fault injection.
public struct MockResponse: Error, Sendable, Hashable {
    /// The HTTP status: 200, or one of APNs' error statuses.
    public var status: Int
    /// APNs' reason for an error (`{"reason": ...}`), nil when accepted.
    public var reason: String?
    /// For 410 Unregistered: when the token stopped being valid, in milliseconds since 1970.
    public var timestamp: Int64?
    /// Headers besides `apns-id` (the channel endpoints' `apns-request-id`, `apns-channel-id`).
    public var headers: [String: String]
    /// A body other than the error body (the channel endpoints' JSON answers).
    public var content: [UInt8]?

    /// An answer; without a reason, the body is empty.
    public init(
        status: Int, reason: String? = nil, timestamp: Int64? = nil, headers: [String: String] = [:],
        content: [UInt8]? = nil
    ) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.headers = headers
        self.content = content
    }

    /// 200 with an empty body: the notification is accepted.
    public static let accepted = MockResponse(status: 200)

    /// The response body APNs sends with an error; empty for success.
    public var body: [UInt8] {
        if let content { return content }
        guard let reason else { return [] }
        if let timestamp { return Array(#"{"reason":"\#(reason)","timestamp":\#(timestamp)}"#.utf8) }
        return Array(#"{"reason":"\#(reason)"}"#.utf8)
    }
}
