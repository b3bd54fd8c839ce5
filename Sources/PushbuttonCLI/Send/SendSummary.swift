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

    /// The counts so far, for the progress line: `1,200 delivered, 3 rejected, 0 failed`.
    var counts: String {
        "\(Self.grouped(delivered)) delivered, \(Self.grouped(rejected.values.reduce(0, +))) rejected, "
            + "\(Self.grouped(failed)) failed" + (invalid > 0 ? ", \(Self.grouped(invalid)) invalid" : "")
    }

    /// `300,000`: thousands separated, whatever the locale.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    func line(elapsed: Duration) -> String {
        let seconds = max(elapsed / .seconds(1), 0.001)
        let reasons = rejected.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return "sent \(total): delivered \(delivered), rejected \(rejected.values.reduce(0, +))"
            + (reasons.isEmpty ? "" : " (\(reasons))") + ", failed \(failed)"
            + (invalid > 0 ? ", invalid \(invalid)" : "")
            + String(format: " in %.2f s (%.0f/s)", seconds, Double(total) / seconds)
    }

    /// One NDJSON result line. The token is included in full: this is the caller's data, for its pipeline
    /// (removing dead tokens); logs and messages elsewhere redact it. `line` is the notification's input line
    /// and `id` the `id` its NDJSON line carried, so results (written in completion order) join back to it.
    static func json(
        _ notification: APNsNotification, _ result: APNsResult, line: Int? = nil, id: String? = nil
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "token": .string(notification.deviceToken.hex),
            "apns_id": .string(UUIDText.lowercase(notification.apnsID)),
        ]
        if let line { object["line"] = .integer(Int64(line)) }
        if let id { object["id"] = .string(id) }
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
            object["error"] = .string(cause.message)
        }
        return .object(object)
    }
}
