import Foundation
import Pushbutton

extension RecordedNotification {
    /// The accepted request as one NDJSON line (`mock-apns --record FILE`): when it arrived (`received_at_us`,
    /// microseconds since 1970 on the real-time clock, which a load generator in another process reads too),
    /// its headers, the full token and the payload (as JSON when it parses, else as text). Unlike the
    /// answer log, nothing is redacted: the file is for tests and benchmarks, and is created private.
    public var recordLine: String {
        var members: [String: JSONValue] = [
            "received_at_us": .integer(Int64((receivedAt.timeIntervalSince1970 * 1_000_000).rounded())),
            "apns_id": .string(apnsID), "token": .string(deviceToken), "topic": .string(topic),
            "connection": .integer(Int64(connection)),
        ]
        if let pushType { members["push_type"] = .string(pushType) }
        if let priority { members["priority"] = .integer(Int64(priority)) }
        if let expiration { members["expiration"] = .integer(expiration) }
        if let collapseID { members["collapse_id"] = .string(collapseID) }
        members["payload"] = (try? JSONParser.parse(payload)) ?? .string(payloadText)
        return String(decoding: JSONWriter.compact(.object(members)), as: UTF8.self)
    }
}
