import Foundation

/// One recipient of an accepted notification: its token, the payload rendered for it and its `apns-id`,
/// fixed at intake so every attempt (and every worker after a crash) sends the same id.
public struct NewDelivery: Sendable, Hashable {
    /// The device token, lowercase hex.
    public var token: String
    /// The `apns-id` (a UUID) every attempt sends, so APNs and logs see one notification however often it is retried.
    public var apnsID: String
    /// The payload rendered for this recipient (its locale's text, its template values), compact JSON bytes.
    public var payload: [UInt8]
    /// Set when the recipient is refused at intake (an inactive device): stored as skipped, never sent.
    public var skippedBecause: String?
    /// When this recipient is due, when it differs from its notification's `sendAt` (a local-time send, a
    /// quiet-hours hold); `nil`: the notification's.
    public var dueAt: Date?
    /// Why it waits past its notification's send time (`quiet_hours`): counted as held until due.
    public var heldBecause: String?
    /// The experiment's variant this recipient is sent in its test (issue 36): kept in its row, so it is
    /// counted by variant, and its payload shared with the variant's other recipients; `nil` for others.
    public var variant: String?
    /// The language of the notification's `"localized"` text its device reads (issue 35), `nil` for the
    /// default text: kept in its row, and its payload shared with the other recipients of that language (and
    /// variant), stored once per notification.
    public var language: String?
    /// Whether its payload was rendered with data of its own (a campaign line's `data`): then it is never the
    /// one taken to share with its language's (or variant's) other recipients, and is stored in a row of its
    /// own unless it equals theirs.
    public var personalized: Bool

    /// A recipient due with its notification, unless `dueAt` says otherwise.
    public init(
        token: String, apnsID: String, payload: [UInt8], skippedBecause: String? = nil, dueAt: Date? = nil,
        heldBecause: String? = nil, variant: String? = nil, language: String? = nil, personalized: Bool = false
    ) {
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.skippedBecause = skippedBecause
        self.dueAt = dueAt
        self.heldBecause = heldBecause
        self.variant = variant
        self.language = language
        self.personalized = personalized
    }
}
