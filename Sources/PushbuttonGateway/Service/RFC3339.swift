import Foundation

/// RFC 3339 times as the tap and stats APIs take and give them: `2026-12-01T10:45:00Z`, with or without
/// fractional seconds, `Z` or an offset.
enum RFC3339 {
    static func date(_ text: String) -> Date? {
        // Formatters are not Sendable: one per call (a batch reads at most 500).
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// UTC, with milliseconds.
    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
