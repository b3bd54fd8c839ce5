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
        fill(notification, result, line: line, id: id)
        return writer.bytes
    }

    /// Writes the line for one result to `output`, from this line's buffer: no copy of the line's array
    /// (returned, it costs a retain and a release per result).
    mutating func write(
        _ notification: APNsNotification, _ result: APNsResult, line: Int?, id: String?, to output: inout BufferedOutput
    ) {
        fill(notification, result, line: line, id: id)
        writer.bytes.withUnsafeBufferPointer { output.line($0) }
    }

    private mutating func fill(_ notification: APNsNotification, _ result: APNsResult, line: Int?, id: String?) {
        writer.reset()
        writer.writeRaw("{\"apns_id\":\"")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { text in
            let count = UUIDText.write(notification.apnsID, to: text)
            writer.writeRaw(UnsafeBufferPointer(rebasing: text.prefix(count)))
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
            return
        case .failed(_, let attempts, let cause):
            integer("attempts", Int64(attempts))
            string("error", cause.message)
            identity(line: line, id: id)
            writer.writeRaw(",\"status\":\"failed\"")
        }
        token(notification)
        writer.writeRaw("}")
    }

    /// `"id"` then `"line"`, which sort between `http_status` and `reason`.
    private mutating func identity(line: Int?, id: String?) {
        if let id { string("id", id) }
        if let line { integer("line", Int64(line)) }
    }

    /// Written raw: a device token is lowercase hex (``DeviceToken`` checks it), which JSON never escapes, so
    /// the escaping scan per result is skipped.
    private mutating func token(_ notification: APNsNotification) {
        var hex = notification.deviceToken.hex  // String.withUTF8 is specialized here, DeviceToken's is not
        writer.writeRaw(",\"token\":\"")
        hex.withUTF8 { writer.writeRaw($0) }
        writer.writeRaw("\"")
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
