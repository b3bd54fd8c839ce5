import Foundation
import Pushbutton

/// What APNs answered to one request.
public struct APNsResponse: Sendable, Hashable {
    /// The HTTP status: 200 accepted, 400–429 refused (see ``reason``), 500 and 503 worth retrying.
    public var status: Int
    /// The `apns-id` header APNs echoed.
    public var apnsID: String?
    /// `apns-unique-id` (sandbox only).
    public var uniqueID: String?
    /// The reason from the JSON body, for an error status.
    public var reason: APNsReason?
    /// `timestamp` from the body of a 410 `Unregistered`, in milliseconds since 1970. A timestamp that is
    /// not a finite number from 0 to ``latestTimestamp`` (year 9999) is ignored, so whatever a server
    /// answers, every later conversion of it (to whole milliseconds, to text) is in range.
    public var timestamp: Date?

    /// The latest `timestamp` accepted, in milliseconds since 1970: the end of year 9999.
    public static let latestTimestamp: Double = 253_402_300_799_999

    /// An answer as the transport decoded it.
    public init(
        status: Int, apnsID: String? = nil, uniqueID: String? = nil, reason: APNsReason? = nil, timestamp: Date? = nil
    ) {
        self.status = status
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.reason = reason
        self.timestamp = timestamp
    }

    /// Reads a response from its status, headers and body. A missing or unreadable body on an error status
    /// gets a reason named after the status, so nothing is ever reason-less.
    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        // What the server sent is shown escaped from here on: a reason or an id with an escape sequence,
        // a CR or an LF cannot reach a terminal, a log line or a summary as it was sent.
        apnsID = headers["apns-id"].map(TerminalText.escaped)
        uniqueID = headers["apns-unique-id"].map(TerminalText.escaped)
        guard status != 200 else { return }
        let json = try? JSONParser.parse(body)
        reason =
            json?["reason"]?.stringValue.map { APNsReason(rawValue: TerminalText.escaped($0)) }
            ?? APNsReason(rawValue: "HTTP\(status)")
        if let milliseconds = json?["timestamp"]?.doubleValue, milliseconds.isFinite,
            (0...Self.latestTimestamp).contains(milliseconds)
        {
            timestamp = Date(timeIntervalSince1970: milliseconds / 1000)
        }
    }
}
