import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport

/// When a notification or campaign is sent, as its request says (issue 35): `send_at` (RFC 3339 with an
/// offset, or a wall-clock time with `"local_time": true`) and, for a campaign, `throttle_per_minute`. Read
/// from a notification's body or a campaign's first line, beside the notification's fields.
struct SendTiming: Sendable, Hashable {
    /// The request's keys this reads.
    static let keys = [
        "send_at", "local_time", "throttle_per_minute", "ignore_quiet_hours", "quiet_hours", "frequency_cap",
    ]

    /// The instant to send at (`send_at` with an offset); `nil`: at once (or at each device's local time).
    var sendAt: Date?
    /// The wall-clock time to send at on each device (`local_time`).
    var localTime: LocalSendTime.WallTime?
    /// Recipients a minute for the campaign, across every process.
    var throttlePerMinute: Int?
    /// Quiet hours do not hold this campaign (`ignore_quiet_hours`: transactional, a 2FA code).
    var ignoreQuietHours = false
    /// `"quiet_hours": true`: a single notification held by quiet hours as a campaign is (`false` on a
    /// campaign: as `ignore_quiet_hours`); `nil`: the kind's default.
    var quietHours: Bool?
    /// `"frequency_cap": true`: a single notification's recipients over the app's cap are skipped as a
    /// campaign's are (`false` on a campaign: not held to it); `nil`: the kind's default.
    var frequencyCap: Bool?

    /// How far in the past a `send_at` may be (clocks differ a little): later than this is refused.
    static let skew: TimeInterval = 60
    /// How far ahead a `send_at` may be: later is a mistake (year 9999), not a plan.
    static let horizon: TimeInterval = 366 * 86_400
    /// The largest `throttle_per_minute`.
    static let maximumRate = 1_000_000

    /// Reads the timing of `value` (an object). With `now`, a `send_at` in the past (beyond ``skew``) or past
    /// ``horizon`` is refused; a stored request read again for a later page is passed `now: nil`.
    static func read(_ value: JSONValue, campaign: Bool, now: Date?, diagnostics: inout [Diagnostic]) -> SendTiming {
        var timing = SendTiming()
        guard let object = value.objectValue else { return timing }
        var local = false
        if let flag = object["local_time"] {
            if let bool = flag.boolValue {
                local = bool
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("local_time"),
                        "'local_time' must be true or false, not \(flag.typeDescription)"))
            }
        }
        if let given = object["send_at"] {
            read(sendAt: given, local: local, now: now, into: &timing, diagnostics: &diagnostics)
        } else if local {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: .root.appending("send_at"),
                    "'local_time' needs a 'send_at' wall-clock time",
                    hint: #"for example "send_at": "2026-12-24T09:00:00", "local_time": true"#))
        }
        if let flag = object["ignore_quiet_hours"] {
            if let bool = flag.boolValue {
                timing.ignoreQuietHours = bool
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("ignore_quiet_hours"),
                        "'ignore_quiet_hours' must be true or false, not \(flag.typeDescription)"))
            }
        }
        timing.quietHours = flag("quiet_hours", in: object, diagnostics: &diagnostics)
        timing.frequencyCap = flag("frequency_cap", in: object, diagnostics: &diagnostics)
        if let rate = object["throttle_per_minute"] {
            if !campaign {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownKey, at: .root.appending("throttle_per_minute"),
                        "'throttle_per_minute' is a campaign's setting",
                        hint: "send many recipients as a campaign (POST /v1/apps/{app}/campaigns)"))
            } else if let number = rate.integerValue, (1...Int64(maximumRate)).contains(number) {
                timing.throttlePerMinute = Int(number)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending("throttle_per_minute"),
                        "'throttle_per_minute' must be an integer from 1 to \(maximumRate)",
                        hint: "recipients a minute, for all the gateway's processes together"))
            }
        }
        return timing
    }

    /// A boolean member of `object`, or a diagnostic naming it.
    private static func flag(_ key: String, in object: [String: JSONValue], diagnostics: inout [Diagnostic]) -> Bool? {
        guard let value = object[key] else { return nil }
        guard let bool = value.boolValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: .root.appending(key),
                    "'\(key)' must be true or false, not \(value.typeDescription)"))
            return nil
        }
        return bool
    }

    /// Whether quiet hours hold the recipients of a notification of this kind (`campaign`): a campaign's
    /// unless it says `ignore_quiet_hours` (or `"quiet_hours": false`), a single one's only with
    /// `"quiet_hours": true`.
    func heldByQuietHours(campaign: Bool) -> Bool {
        !ignoreQuietHours && (quietHours ?? campaign)
    }

    /// The quiet hours the store re-checks when a lease takes each recipient (those that hold it at intake:
    /// ``heldByQuietHours(campaign:)`` and the app has a window), with the app's default zone; `nil`: none.
    func quietHoursHold(campaign: Bool, app: AppConfiguration) -> QuietHoursHold? {
        guard heldByQuietHours(campaign: campaign), let quiet = app.quietHours else { return nil }
        return QuietHoursHold(start: quiet.start, end: quiet.end, defaultTimeZone: app.defaultTimeZone)
    }

    /// Whether recipients over the app's frequency cap are skipped: a campaign's unless it says
    /// `"frequency_cap": false`, a transactional single one's only with `"frequency_cap": true`.
    func heldToFrequencyCap(campaign: Bool) -> Bool { frequencyCap ?? campaign }

    private static func read(
        sendAt given: JSONValue, local: Bool, now: Date?, into timing: inout SendTiming,
        diagnostics: inout [Diagnostic]
    ) {
        let path = JSONPath.root.appending("send_at")
        guard let text = given.stringValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path, "'send_at' must be a string, not \(given.typeDescription)",
                    hint: #"RFC 3339 with an offset: "2026-12-24T09:00:00+01:00""#))
            return
        }
        if local {
            guard let wall = LocalSendTime.wallTime(text) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: path,
                        "with 'local_time', 'send_at' is a wall-clock time without an offset, not '\(text)'",
                        hint: #"for example "2026-12-24T09:00:00": 09:00 on each device's clock"#))
                return
            }
            // Every zone is within 14 hours of UTC: outside the bounds in all of them is refused.
            if let now, !check(wall.asUTC, text: text, now: now, slack: 14 * 3600, diagnostics: &diagnostics) { return }
            timing.localTime = wall
            return
        }
        guard let date = RFC3339.date(text) else {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path, "'send_at' is not an RFC 3339 time with an offset: '\(text)'",
                    hint: #"for example "2026-12-24T09:00:00+01:00" or "2026-12-24T08:00:00Z"; add "local_time": true "#
                        + "for each device's wall clock"))
            return
        }
        if let now, !check(date, text: text, now: now, slack: 0, diagnostics: &diagnostics) { return }
        timing.sendAt = date
    }

    /// Whether `date` lies between ``skew`` before `now` and ``horizon`` after it (widened by `slack`).
    private static func check(
        _ date: Date, text: String, now: Date, slack: TimeInterval, diagnostics: inout [Diagnostic]
    ) -> Bool {
        let path = JSONPath.root.appending("send_at")
        if date < now - skew - slack {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path, "'send_at' \(text) has passed",
                    hint: "leave 'send_at' out to send now, or give a time ahead"))
            return false
        }
        if date > now + horizon + slack {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path, "'send_at' \(text) is more than a year ahead",
                    hint: "schedule at most \(Int(horizon / 86_400)) days ahead"))
            return false
        }
        return true
    }

    /// Whether anything waits: a send time of either kind.
    var isScheduled: Bool { sendAt != nil || localTime != nil }

    /// Each token's due time of its own (nothing for those due with the notification), and those held by quiet
    /// hours: for a local-time send the wall time in the device's registered zone, else `defaultZone`, else UTC,
    /// at once where it has passed (`now`); then, with `quiet` hours (the app's, a device's own overriding them),
    /// a send time inside them moves to their end (``QuietHours/nextAllowed(after:in:quiet:)``).
    func dueTimes(
        for tokens: [String], devices: [String: DeviceTimes], defaultZone: TimeZone?, quiet: QuietHours?, now: Date
    ) -> (due: [String: Date], held: Set<String>) {
        let quiet = ignoreQuietHours ? nil : quiet
        guard localTime != nil || quiet != nil else { return ([:], []) }
        let fallback = defaultZone ?? TimeZone(identifier: "UTC") ?? .current
        var resolved: [String: TimeZone] = [:]
        var due: [String: Date] = [:]
        var held: Set<String> = []
        due.reserveCapacity(tokens.count)
        for token in tokens {
            let device = devices[token]
            let name = device?.timeZone
            let zone: TimeZone
            if let name {
                if let known = resolved[name] {
                    zone = known
                } else {
                    zone = TimeZone(identifier: name) ?? fallback
                    resolved[name] = zone
                }
            } else {
                zone = fallback
            }
            var at = sendAt ?? now
            if let wall = localTime { at = LocalSendTime.resolve(wall, in: zone, notBefore: now) }
            var window = quiet
            if window != nil, let start = device?.quietStart, let end = device?.quietEnd {
                window = QuietHours(start: start, end: end)
            }
            if let window, let end = QuietHours.nextAllowed(after: at, in: zone, quiet: window) {
                at = end
                held.insert(token)
            }
            if localTime != nil || held.contains(token) { due[token] = at }
        }
        return (due, held)
    }
}
