import Foundation
import Pushbutton
import PushbuttonSupport

/// Hours of a device's local day when campaigns do not reach it (`"quiet_hours": {"start": "22:00", "end":
/// "08:00"}`, an app's setting, a device's registration overriding it): a campaign send that falls inside is held
/// until the end, counted `held`. A window may wrap midnight; start equal to end is no window.
struct QuietHours: Sendable, Hashable {
    /// Minutes after local midnight.
    var start: Int
    var end: Int

    /// The reason a held recipient's row carries while it waits (counted `held`).
    static let heldReason = "quiet_hours"

    /// When a send at `instant` may go out on a device in `zone`: `nil` when outside the window (now is fine),
    /// else the window's end (the same local day, or the next when the window wraps midnight and `instant` is
    /// before it), resolved as ``LocalSendTime`` resolves wall times.
    static func nextAllowed(after instant: Date, in zone: TimeZone, quiet: QuietHours) -> Date? {
        quiet.window.nextAllowed(after: instant, in: zone)
    }

    /// The window as the store keeps it (it applies the same rule again when a lease takes the recipient).
    var window: QuietWindow { QuietWindow(start: start, end: end) }

    /// Reads `{"start": "HH:MM", "end": "HH:MM"}` at `path`; `nil` (and a diagnostic) for anything else.
    static func read(_ value: JSONValue, at path: JSONPath, diagnostics: inout [Diagnostic]) -> QuietHours? {
        guard let object = value.objectValue, Set(object.keys) == ["start", "end"] else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path, "'quiet_hours' must be {\"start\": \"HH:MM\", \"end\": \"HH:MM\"}",
                    hint: #"for example {"start": "22:00", "end": "08:00"}, in each device's local time"#))
            return nil
        }
        var minutes: [String: Int] = [:]
        for key in ["start", "end"] {
            guard let text = object[key]?.stringValue, let value = minute(text) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: path.appending(key),
                        "'\(key)' must be a time of day HH:MM (00:00–23:59)"))
                continue
            }
            minutes[key] = value
        }
        guard let start = minutes["start"], let end = minutes["end"] else { return nil }
        return QuietHours(start: start, end: end)
    }

    /// `HH:MM` as minutes after midnight.
    static func minute(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }
}
