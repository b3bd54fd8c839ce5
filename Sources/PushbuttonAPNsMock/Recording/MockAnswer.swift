import Pushbutton
import PushbuttonAPNs

/// One answered request, as the mock reports it to an observer (for logs: the token is redacted).
public struct MockAnswer: Sendable, Hashable {
    /// The `apns-id` the mock answered with (or the `apns-request-id` of a channel request or broadcast).
    public var apnsID: String
    /// The device token, redacted to its first characters.
    public var redactedToken: String
    /// The HTTP status answered.
    public var status: Int
    /// APNs' reason for an error status; `nil` when accepted.
    public var reason: String?
    /// Which connection carried it (numbered from 1 in the order they were accepted).
    public var connection: Int
    /// For a channel management request or a broadcast: `create`, `read`, `list`, `delete`, `broadcast`
    /// (then `apnsID` is the `apns-request-id`, and there is no token).
    public var operation: String? = nil
    /// For a channel request or a broadcast: the bundle id of its path.
    public var bundleID: String? = nil
    /// The channel named or created (channel ids are not secret: apps hand them to every subscriber).
    public var channelID: String? = nil

    /// One JSON object on one line.
    public var jsonLine: String {
        if let operation {
            var line = #"{"apns_request_id":"\#(apnsID)","operation":"\#(operation)""#
            if let bundleID { line += #","bundle_id":"# + Self.quoted(bundleID) }
            if let channelID { line += #","channel_id":"# + Self.quoted(channelID) }
            line += #","status":\#(status)"#
            if let reason { line += #","reason":"\#(reason)""# }
            return line + #","connection":\#(connection)}"#
        }
        var line = #"{"apns_id":"\#(apnsID)","token":"\#(redactedToken)","status":\#(status)"#
        if let reason { line += #","reason":"\#(reason)""# }
        return line + #","connection":\#(connection)}"#
    }

    /// `text` as a JSON string: what a request carried in its path or headers, escaped.
    private static func quoted(_ text: String) -> String {
        String(decoding: JSONWriter.compact(.string(text)), as: UTF8.self)
    }
}
