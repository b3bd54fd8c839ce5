import Foundation

/// A wall-clock date and time in no zone, and the instant it names in a zone: the one rule the gateway's
/// local-time sends and the store's quiet hours (checked at intake and again at lease) resolve wall times by.
///
/// A wall time a zone skips (a spring-forward gap) is taken with the offset before the gap, so it lands as far
/// after the change as it was meant after the previous hour, as java.time and the tz database's zic do; a wall
/// time a zone repeats (the autumn fall-back) is its first occurrence.
package struct WallClockTime: Sendable, Hashable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The fields as if they were UTC: the instant they name in a zone is this minus the zone's offset then.
    package var asUTC: Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
    }

    /// The instant this names in `zone` (gaps and repeats as the type's documentation says).
    package func instant(in zone: TimeZone) -> Date {
        let naive = asUTC
        // The offsets in force around it (at most one change a day in any zone).
        let before = zone.secondsFromGMT(for: naive - 86_400 / 2)
        let after = zone.secondsFromGMT(for: naive + 86_400 / 2)
        let valid = [before, after].map { naive - Double($0) }.filter { candidate in
            let offset = Double(zone.secondsFromGMT(for: candidate))
            return candidate == naive - offset
        }
        // A repeat: both are valid, the first comes first. A gap: neither is; the offset before the gap.
        return valid.min() ?? naive - Double(before)
    }
}
