import Foundation
import Pushbutton
import PushbuttonAPNs

/// The counts `pushbutton send` reports at the end.
struct SendSummary {
    var delivered = 0
    var rejected: [String: Int] = [:]
    var failed = 0
    var invalid = 0

    var total: Int { delivered + rejected.values.reduce(0, +) + failed }

    mutating func add(_ result: APNsResult) {
        switch result {
        case .delivered: delivered += 1
        case .rejected(_, _, let reason, _): rejected[reason.rawValue, default: 0] += 1
        case .failed: failed += 1
        }
    }

    func line(elapsed: Duration) -> String {
        let seconds = max(elapsed / .seconds(1), 0.001)
        let reasons = rejected.keys.sorted().map { "\($0): \(rejected[$0]!)" }.joined(separator: ", ")
        return "sent \(total): delivered \(delivered), rejected \(rejected.values.reduce(0, +))"
            + (reasons.isEmpty ? "" : " (\(reasons))") + ", failed \(failed)"
            + (invalid > 0 ? ", invalid \(invalid)" : "")
            + String(format: " in %.2f s (%.0f/s)", seconds, Double(total) / seconds)
    }

    /// One NDJSON result line. The token is included in full: this is the caller's data, for its pipeline
    /// (removing dead tokens); logs and messages elsewhere redact it.
    static func json(_ notification: APNsNotification, _ result: APNsResult) -> JSONValue {
        var object: [String: JSONValue] = [
            "token": .string(notification.deviceToken.hex),
            "apns_id": .string(UUIDText.lowercase(notification.apnsID)),
        ]
        switch result {
        case .delivered(_, let unique):
            object["status"] = "delivered"
            if let unique { object["apns_unique_id"] = .string(unique) }
        case .rejected(_, let status, let reason, let since):
            object["status"] = "rejected"
            object["http_status"] = .integer(Int64(status))
            object["reason"] = .string(reason.rawValue)
            if let since { object["unregistered_at"] = .integer(Int64(since.timeIntervalSince1970 * 1000)) }
        case .failed(_, let attempts, let cause):
            object["status"] = "failed"
            object["attempts"] = .integer(Int64(attempts))
            object["error"] = .string(cause)
        }
        return .object(object)
    }
}

/// A progress line on standard error, only when it is a terminal.
struct SendProgress {
    let console: Console
    let total: Int?
    let enabled = isatty(STDERR_FILENO) == 1

    func update(_ done: Int, elapsed: Duration) {
        guard enabled, done % 100 == 0 || done == total else { return }
        let seconds = max(elapsed / .seconds(1), 0.001)
        let rate = Double(done) / seconds
        var line = String(format: "\r%d sent, %.0f/s", done, rate)
        if let total, total > 0 {
            let filled = done * 30 / total
            line =
                "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
                + String(format: "%d/%d, %.0f/s, ETA %.0f s", done, total, rate, Double(total - done) / max(rate, 1))
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
