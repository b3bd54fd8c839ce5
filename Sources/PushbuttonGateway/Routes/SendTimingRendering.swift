import Foundation
import Pushbutton
import PushbuttonStore

/// How a notification's or campaign's timing reads in the API (issue 35): `scheduled`, `held` and
/// `throttled` among its counts (taken out of `queued`, so the counts still add up to its recipients), its
/// `send_at` (RFC 3339), `throttle_per_minute` and a throttled campaign's `expected_finish`.
enum SendTimingRendering {
    /// Adds the waiting counts to `counts` (whose `queued` still includes them).
    static func counts(_ schedule: ScheduleCounts, into counts: inout [String: JSONValue]) {
        let queued = counts["queued"]?.integerValue ?? 0
        counts["queued"] = .integer(max(0, queued - Int64(schedule.waiting)))
        counts["scheduled"] = .integer(Int64(schedule.scheduled))
        counts["held"] = .integer(Int64(schedule.held))
        counts["throttled"] = .integer(Int64(schedule.throttled))
    }

    /// Adds the timing fields to a notification's or campaign's object.
    static func timing(_ schedule: ScheduleCounts, into object: inout [String: JSONValue]) {
        if let sendAt = schedule.sendAt { object["send_at"] = .string(RFC3339.text(sendAt)) }
        if let rate = schedule.throttlePerMinute { object["throttle_per_minute"] = .integer(Int64(rate)) }
        if let finish = schedule.expectedFinish { object["expected_finish"] = .string(RFC3339.text(finish)) }
    }
}
