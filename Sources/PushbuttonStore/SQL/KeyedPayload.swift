/// A shared payload other than a notification's default one: an experiment variant's, a `"localized"`
/// language's, or a variant's in a language — its notification, its key and the payload.
struct KeyedPayload: Sendable {
    var notification: String
    var variant: String?
    var language: String?
    var payload: [UInt8]

    /// Whether it is `row`'s shared payload (same notification, variant and language).
    func isShared(by row: LeasedRow) -> Bool {
        variant == row.variant && language == row.language && notification == row.notification
    }

    /// `row`'s shared payload among `payloads` (a lease holds a few: found by comparing strings that are mostly
    /// the same buffers, not by hashing a key per recipient).
    static func find(for row: LeasedRow, in payloads: [KeyedPayload]) -> [UInt8]? {
        payloads.first { $0.isShared(by: row) }?.payload
    }

    /// The table it is kept in and the columns and values that find it there.
    var stored: (table: String, columns: String, values: [SQLValue]) {
        guard let language else {
            return ("variant_payloads", "notification_id = ? AND variant = ?", [.text(notification), variant.sql])
        }
        return (
            "language_payloads", "notification_id = ? AND variant = ? AND language = ?",
            [.text(notification), .text(variant ?? ""), .text(language)]
        )
    }
}
