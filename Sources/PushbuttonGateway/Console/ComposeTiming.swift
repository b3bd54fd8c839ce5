import Foundation
import Pushbutton
import PushbuttonSupport

/// The compose form's "When" fields: send now, at a date and time in a named zone, or at a wall-clock time on
/// each device (`local_time`); a campaign's `throttle_per_minute`; `ignore_quiet_hours`. They become the
/// request's own timing fields, which ``SendTiming`` (the API's reader) checks: its diagnostics land beside
/// these fields.
struct ComposeTiming: Sendable {
    /// When to send.
    enum Mode: String, Sendable, CaseIterable {
        case now, at, local
    }

    var mode = Mode.now
    /// The `datetime-local` control's value (`2026-12-24T09:00`, seconds optional).
    var time = ""
    /// The IANA zone an `at` time is in.
    var zone = "UTC"
    /// Recipients a minute, as typed (empty: the app's default, else unlimited).
    var throttle = ""
    var ignoreQuietHours = false

    /// The form fields' names (and so their diagnostics' slots).
    enum Field {
        static let sendAt = "send_at"
        static let zone = "send_zone"
        static let throttle = "throttle_per_minute"
        static let ignoreQuietHours = "ignore_quiet_hours"
    }

    init() {}

    init(_ fields: FormFields) {
        mode = fields.text("when").flatMap(Mode.init(rawValue:)) ?? .now
        time = fields.text(Field.sendAt) ?? ""
        zone = fields.text(Field.zone) ?? "UTC"
        throttle = fields.text(Field.throttle) ?? ""
        ignoreQuietHours = fields[Field.ignoreQuietHours] != nil
    }

    /// Adds the request's timing fields to `object`; what the form alone can tell is wrong (no time chosen, a
    /// zone the tz database does not know) is a diagnostic at its field.
    func apply(to object: inout [String: JSONValue], diagnostics: inout [Diagnostic]) {
        if let rate = Int(throttle) {
            object["throttle_per_minute"] = .integer(Int64(rate))
        } else if !throttle.isEmpty {
            // Not a number: the API's reader says what it must be, at the same field.
            object["throttle_per_minute"] = .string(throttle)
        }
        if ignoreQuietHours { object["ignore_quiet_hours"] = .bool(true) }
        guard mode != .now else { return }
        let path = JSONPath.root.appending(Field.sendAt)
        guard !time.isEmpty else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: path, "choose the date and time to send at",
                    hint: "or choose Now to send at once"))
            return
        }
        guard let wall = LocalSendTime.wallTime(time) else {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path, "'\(time)' is not a date and time",
                    hint: "for example 2026-12-24T09:00"))
            return
        }
        if mode == .local {
            object["send_at"] = .string(Self.wallText(wall))
            object["local_time"] = .bool(true)
            return
        }
        guard TimeZoneName.isKnown(zone), let timeZone = TimeZone(identifier: zone) else {
            diagnostics.append(TimeZoneName.unknown(zone, at: .root.appending(Field.zone)))
            return
        }
        object["send_at"] = .string(Self.text(LocalSendTime.instant(wall, in: timeZone), in: timeZone))
    }

    /// `2026-12-24T09:00:00`: a wall time as `send_at` spells it with `local_time`.
    static func wallText(_ wall: LocalSendTime.WallTime) -> String {
        String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", wall.year, wall.month, wall.day, wall.hour, wall.minute,
            wall.second)
    }

    /// RFC 3339 with the zone's offset at that instant (`2026-12-24T09:00:00+01:00`): the request keeps the
    /// time as it was meant.
    static func text(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssxxxxx"
        return formatter.string(from: date)
    }

    /// The "When" fieldset; `slot` draws a field's diagnostics, `described` its attributes.
    func render(slot: (String) -> HTML, described: (String) -> HTML) -> HTML {
        let modes: [(Mode, String)] = [
            (.now, "Now"), (.at, "At a date and time"), (.local, "At this time on each device's clock (local time)"),
        ]
        var html: HTML = """
            <fieldset id="when">
            <legend>When</legend>
            <div class="radios" role="radiogroup" aria-label="When to send">

            """
        for (mode, label) in modes {
            html +=
                "<label><input type=\"radio\" name=\"when\" value=\"\(mode.rawValue)\" id=\"when-\(mode.rawValue)\""
                + "\(self.mode == mode ? " checked" : "")> \(label)</label>\n"
        }
        html += """
            </div>
            <div class="when-time">
            <label for="send_at">Date and time</label>
            <input type="datetime-local" id="send_at" name="send_at" value="\(time)" step="60"\(described(Field.sendAt))>
            \(slot(Field.sendAt))
            <label for="send_zone">Time zone (for "At a date and time"; local time uses each device's own)</label>
            <input type="text" id="send_zone" name="send_zone" value="\(zone)" list="zones" spellcheck="false" \
            autocomplete="off"\(described(Field.zone))>
            <datalist id="zones">\(Self.zoneOptions)</datalist>
            \(slot(Field.zone))
            <p class="hint">Where that time has already passed on a device when you send, it is sent at once.</p>
            </div>
            <label for="throttle_per_minute">Throttle: recipients a minute (campaigns; empty: the app's default)</label>
            <input type="number" id="throttle_per_minute" name="throttle_per_minute" value="\(throttle)" min="1" \
            max="\(SendTiming.maximumRate)" inputmode="numeric"\(described(Field.throttle))>
            \(slot(Field.throttle))
            <label class="check"><input type="checkbox" id="ignore_quiet_hours" name="ignore_quiet_hours" \
            value="1"\(ignoreQuietHours ? " checked" : "")\(described(Field.ignoreQuietHours))> Ignore quiet hours \
            (transactional, such as a sign-in code; quiet hours hold campaigns only)</label>
            \(slot(Field.ignoreQuietHours))
            </fieldset>

            """
        return html
    }

    /// The tz database's names, as a datalist's options (read once).
    private static let zoneOptions: HTML = TimeZone.knownTimeZoneIdentifiers.sorted().map { name -> HTML in
        "<option value=\"\(name)\">"
    }.joined()
}
