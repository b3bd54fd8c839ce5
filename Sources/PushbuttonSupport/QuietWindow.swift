import Foundation

/// Quiet hours as minutes after local midnight (`start` inclusive, `end` exclusive; a window may wrap
/// midnight; start equal to end is no window), and the rule of when a send may go out: the one the gateway
/// applies at intake and the store applies again when a lease takes the recipient.
package struct QuietWindow: Sendable, Hashable {
    package var start: Int
    package var end: Int

    package init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// When a send at `instant` may go out on a device in `zone`: `nil` when outside the window (now is fine),
    /// else the window's end (the same local day, or the next when the window wraps midnight and `instant` is
    /// before it), resolved as ``WallClockTime/instant(in:)`` resolves wall times; an end whose wall time comes
    /// twice is its occurrence after `instant`.
    package func nextAllowed(after instant: Date, in zone: TimeZone) -> Date? {
        guard start != end else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        let wraps = start > end
        let inside = wraps ? minute >= start || minute < end : minute >= start && minute < end
        guard inside else { return nil }
        // The end falls on the next local day when the window wraps and `instant` is before midnight.
        var endDay = DateComponents(year: year, month: month, day: day)
        if wraps && minute >= start {
            let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? instant
            let next = calendar.date(byAdding: .day, value: 1, to: noon) ?? noon
            endDay = calendar.dateComponents([.year, .month, .day], from: next)
        }
        let wall = WallClockTime(
            year: endDay.year ?? year, month: endDay.month ?? month, day: endDay.day ?? day, hour: end / 60,
            minute: end % 60, second: 0)
        let resolved = wall.instant(in: zone)
        if resolved > instant { return resolved }
        // The end's wall time came twice (a clock set back) and its first occurrence has passed: the window ends at
        // the second. (Held "until now" instead, a lease would put the recipient back due at once, again and again,
        // for the rest of the repeated hour.)
        let later = resolved.addingTimeInterval(
            TimeInterval(zone.secondsFromGMT(for: resolved) - zone.secondsFromGMT(for: instant)))
        return later > instant ? later : nil
    }
}
