import Foundation
import PushbuttonSupport

/// A wall-clock time (`2026-12-24T09:00:00`, no offset) resolved to the instant it is in a device's time
/// zone, for `"local_time": true` sends.
///
/// The rules, in one place: a wall time a zone skips (a spring-forward gap, Europe/Paris 2026-03-29 02:30) is
/// taken with the offset before the gap, so it lands as far after the change as it was meant after the
/// previous hour (03:30 CEST), as java.time and the tz database's zic do; a wall time a zone repeats (the
/// autumn fall-back, 2026-10-25 02:30) is its first occurrence (the summer offset); and a time already past
/// in the device's zone when the notification is created is sent at once (Airship's rule), never a day late.
enum LocalSendTime {
    /// A wall-clock date and time, as read from `send_at` without an offset (resolved as
    /// ``WallClockTime/instant(in:)`` says, the rule quiet hours share).
    typealias WallTime = WallClockTime

    /// The instant `wall` is in `zone`, or `notBefore` when that has passed (sent at once).
    static func resolve(_ wall: WallTime, in zone: TimeZone, notBefore: Date) -> Date {
        max(instant(wall, in: zone), notBefore)
    }

    /// The instant `wall` names in `zone` (gaps and repeats as the type's documentation says).
    static func instant(_ wall: WallTime, in zone: TimeZone) -> Date {
        wall.instant(in: zone)
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS` (seconds optional) without an offset; `nil` for anything else.
    static func wallTime(_ text: String) -> WallTime? {
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard date.count == 3, date[0].count == 4, date[1].count == 2, date[2].count == 2, (2...3).contains(time.count),
            time.allSatisfy({ $0.count == 2 }),
            (date + time).allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]), let hour = Int(time[0]),
            let minute = Int(time[1])
        else { return nil }
        let second = time.count == 3 ? Int(time[2]) ?? 99 : 0
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
            return nil
        }
        let wall = WallTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // A day the month does not have (02-30) would roll over: refused.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        guard calendar.component(.day, from: wall.asUTC) == day else { return nil }
        return wall
    }
}
