import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// How the campaign pages show a campaign's timing (issue 35): its state (scheduled, held, throttled,
/// sending, finished, cancelled), when it is sent (`send_at`, or a wall-clock time on each device), its rate
/// and expected finish, and the waiting counts. Read from the record's ``ScheduleCounts`` (the same numbers as
/// the API's `scheduled`, `held`, `throttled` and `expected_finish`).
enum CampaignTiming {
    /// One word for where the campaign is: what most of its unsent recipients wait for, else whether any are
    /// left.
    static func state(_ record: NotificationRecord) -> String {
        if record.state == "cancelled" { return "cancelled" }
        let pending = (record.counts[.queued] ?? 0) + (record.counts[.leased] ?? 0)
        if record.total > 0 && pending == 0 { return "finished" }
        guard let schedule = record.schedule, schedule.waiting > 0 else { return "sending" }
        // Nothing due now: the largest reason it waits names it.
        let reasons = [("scheduled", schedule.scheduled), ("throttled", schedule.throttled), ("held", schedule.held)]
        if schedule.waiting >= pending, let top = reasons.max(by: { $0.1 < $1.1 }) { return top.0 }
        return "sending"
    }

    /// The wall-clock `send_at` of a local-time campaign, as its request gave it.
    static func localTime(_ record: NotificationRecord) -> String? {
        let request = (try? JSONParser.parse(record.spec.request))?.objectValue ?? [:]
        guard request["local_time"]?.boolValue == true, let text = request["send_at"]?.stringValue else { return nil }
        return text
    }

    /// The store's expected finish, unless recipients still wait for their own local time: the store's estimate
    /// counts from the campaign's next send slot (or `send_at`), which a local-time campaign's devices are not due
    /// at, so it would name a time before they are even sent.
    static func expectedFinish(_ record: NotificationRecord) -> Date? {
        guard let schedule = record.schedule, schedule.scheduled == 0 || localTime(record) == nil else { return nil }
        return schedule.expectedFinish
    }

    /// When it is sent, its rate and expected finish, as short text for the list.
    static func summary(_ record: NotificationRecord) -> HTML {
        var parts: [HTML] = []
        if let wall = localTime(record) {
            parts.append("<span class=\"send-at\">\(wall.replacingOccurrences(of: "T", with: " ")) local time</span>")
        } else if let sendAt = record.schedule?.sendAt ?? record.spec.sendAt {
            parts.append("<span class=\"send-at\">\(CampaignPage.time(sendAt))</span>")
        } else {
            parts.append("at once")
        }
        if let rate = record.schedule?.throttlePerMinute ?? record.spec.throttlePerMinute {
            parts.append("\(ConsolePage.count(rate))/min")
        }
        if let finish = expectedFinish(record) {
            parts.append("<span class=\"finish\">finish ≈ \(CampaignPage.time(finish))</span>")
        }
        return parts.joined(separator: "<br>")
    }

    /// The campaign page's timing section: when, rate, expected finish, and what waits.
    static func section(_ record: NotificationRecord) -> HTML {
        let schedule = record.schedule ?? ScheduleCounts()
        var when: HTML
        if let wall = localTime(record) {
            when =
                "\(wall.replacingOccurrences(of: "T", with: " ")) on each device's clock (its time zone, else the "
                + "app's default); where that time had passed, at once"
        } else if let sendAt = schedule.sendAt ?? record.spec.sendAt {
            when = "\(CampaignPage.time(sendAt))"
        } else {
            when = "at once"
        }
        let rate = schedule.throttlePerMinute ?? record.spec.throttlePerMinute
        let waitsForLocalTimes = schedule.scheduled > 0 && localTime(record) != nil
        let finish =
            expectedFinish(record).map(CampaignPage.time)
            ?? (waitsForLocalTimes ? "after the devices' local times" : "—")
        return """
            <section class="panel" aria-labelledby="timing-heading">
            <h2 id="timing-heading">When</h2>
            <dl class="timing" id="timing">
            <dt>State</dt><dd id="campaign-state">\(state(record))</dd>
            <dt>Sent</dt><dd id="campaign-send-at">\(when)</dd>
            <dt>Throttle</dt><dd id="campaign-throttle">\(rate.map { ConsolePage.count($0) + " a minute" } ?? "none")</dd>
            <dt>Expected finish</dt><dd id="campaign-finish">\(finish)</dd>
            <dt>Waiting</dt><dd id="campaign-waiting">\(ConsolePage.count(schedule.scheduled)) scheduled · \
            \(ConsolePage.count(schedule.held)) held by quiet hours · \(ConsolePage.count(schedule.throttled)) throttled</dd>
            </dl>
            </section>

            """
    }

    /// The counts by state as the API gives them: the waiting ones taken out of `queued`.
    static func counts(_ record: NotificationRecord) -> [(String, Int)] {
        let schedule = record.schedule ?? ScheduleCounts()
        return DeliveryState.allCases.flatMap { state -> [(String, Int)] in
            let count = record.counts[state] ?? 0
            guard state == .queued else { return [(state.rawValue, count)] }
            return [
                ("queued", max(0, count - schedule.waiting)), ("scheduled", schedule.scheduled),
                ("held", schedule.held),
                ("throttled", schedule.throttled),
            ]
        }
    }
}
