import Foundation

/// RFC 3339 times as the gateway's tap and stats APIs take and give them, and as devices write a tap's `at`:
/// `2026-12-01T10:45:00Z`, with or without fractional seconds, `Z` or an offset.
///
/// Here, in the core module, because both sides of the wire use it (``TapEvent``). Read by hand: Foundation's
/// `ISO8601DateFormatter` on Linux took about 0.15 ms a time, most of what a batch of 500 taps cost. Written with
/// the formatter (once per tap on a device, rarely on the gateway: the stats' `from` and `to`).
public enum RFC3339 {
    /// The instant `text` names, or `nil` when it is not an RFC 3339 date-time (a date that does not exist, such as
    /// February 30, included). A leap second (`:60`) is read as the next second.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ allowed: [UInt8]) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect([0x2D]), let month = number(2), expect([0x2D]), let day = number(2),
            expect([0x54, 0x74]), let hour = number(2), expect([0x3A]), let minute = number(2), expect([0x3A]),
            let second = number(2)
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if expect([0x5A, 0x7A]) {
            offset = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let hours = number(2), expect([0x3A]), let minutes = number(2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count, (1...12).contains(month), day >= 1, day <= daysIn(month, of: year), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        let seconds = daysSinceEpoch(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (the civil-from-days algorithm, inverted).
    private static func daysSinceEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `date` in UTC with milliseconds, e.g. `2026-12-01T10:45:00.250Z`.
    public static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
