import Foundation
import Pushbutton
import PushbuttonAPNs

/// Writes `send`'s NDJSON result lines into one reusable buffer: the bytes of
/// `JSONWriter.compact(SendSummary.json(…))` (keys in sorted order), without the dictionary, the values
/// and the id string that building a ``JSONValue`` per notification costs.
struct SendResultLine {
    private var writer = JSONWriter(reservingCapacity: 512)

    /// The line for one result (without its line break); valid until the next call.
    mutating func write(_ notification: APNsNotification, _ result: APNsResult, line: Int?, id: String?) -> [UInt8] {
        writer.reset()
        writer.writeRaw("{\"apns_id\":\"")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            let count = UUIDText.write(notification.apnsID, to: text)
            for byte in text.prefix(count) { writer.writeRaw(byte) }
        }
        writer.writeRaw("\"")
        switch result {
        case .delivered(_, let unique):
            if let unique { string("apns_unique_id", unique) }
            identity(line: line, id: id)
            writer.writeRaw(",\"status\":\"delivered\"")
        case .rejected(_, let status, let reason, let since):
            integer("http_status", Int64(status))
            identity(line: line, id: id)
            string("reason", reason.rawValue)
            writer.writeRaw(",\"status\":\"rejected\"")
            token(notification)
            if let since { integer("unregistered_at", Int64(since.timeIntervalSince1970 * 1000)) }
            writer.writeRaw("}")
            return writer.bytes
        case .failed(_, let attempts, let cause):
            integer("attempts", Int64(attempts))
            string("error", cause.message)
            identity(line: line, id: id)
            writer.writeRaw(",\"status\":\"failed\"")
        }
        token(notification)
        writer.writeRaw("}")
        return writer.bytes
    }

    /// `"id"` then `"line"`, which sort between `http_status` and `reason`.
    private mutating func identity(line: Int?, id: String?) {
        if let id { string("id", id) }
        if let line { integer("line", Int64(line)) }
    }

    private mutating func token(_ notification: APNsNotification) {
        string("token", notification.deviceToken.hex)
    }

    private mutating func string(_ key: StaticString, _ value: String) {
        writer.writeRaw(",\"")
        writer.writeRaw(key)
        writer.writeRaw("\":")
        writer.write(value)
    }

    private mutating func integer(_ key: StaticString, _ value: Int64) {
        writer.writeRaw(",\"")
        writer.writeRaw(key)
        writer.writeRaw("\":")
        writer.write(value)
    }
}
