import Foundation

/// RFC 3339 times as the tap and stats APIs take and give them: `2026-12-01T10:45:00Z`, with or without
/// fractional seconds, `Z` or an offset.
///
/// A formatter is costly to make and not `Sendable`: make one reader per request and use it for every time in it.
final class RFC3339 {
    private let withFraction = ISO8601DateFormatter()
    private let withoutFraction = ISO8601DateFormatter()

    init() {
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        withoutFraction.formatOptions = [.withInternetDateTime]
    }

    func date(_ text: String) -> Date? {
        withFraction.date(from: text) ?? withoutFraction.date(from: text)
    }

    /// UTC, with milliseconds.
    func text(_ date: Date) -> String { withFraction.string(from: date) }
}
