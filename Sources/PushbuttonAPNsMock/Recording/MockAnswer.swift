import PushbuttonAPNs

/// One answered request, as the mock reports it to an observer (for logs: the token is redacted).
public struct MockAnswer: Sendable, Hashable {
    public var apnsID: String
    /// The device token, redacted to its first characters.
    public var redactedToken: String
    public var status: Int
    public var reason: String?
    public var connection: Int

    /// One JSON object on one line.
    public var jsonLine: String {
        var line = #"{"apns_id":"\#(apnsID)","token":"\#(redactedToken)","status":\#(status)"#
        if let reason { line += #","reason":"\#(reason)""# }
        return line + #","connection":\#(connection)}"#
    }
}
