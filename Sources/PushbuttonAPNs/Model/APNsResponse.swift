import Foundation
import Pushbutton

/// What APNs answered to one request.
public struct APNsResponse: Sendable, Hashable {
    public var status: Int
    /// The `apns-id` header APNs echoed.
    public var apnsID: String?
    /// `apns-unique-id` (sandbox only).
    public var uniqueID: String?
    /// The reason from the JSON body, for an error status.
    public var reason: APNsReason?
    /// `timestamp` from the body of a 410 `Unregistered`, in milliseconds since 1970.
    public var timestamp: Date?

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
        apnsID = headers["apns-id"]
        uniqueID = headers["apns-unique-id"]
        guard status != 200 else { return }
        let json = try? JSONParser.parse(body)
        reason = json?["reason"]?.stringValue.map(APNsReason.init) ?? APNsReason(rawValue: "HTTP\(status)")
        if let milliseconds = json?["timestamp"]?.doubleValue {
            timestamp = Date(timeIntervalSince1970: milliseconds / 1000)
        }
    }
}
