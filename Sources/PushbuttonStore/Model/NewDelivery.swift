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

    /// A recipient due with its notification, unless `dueAt` says otherwise.
    public init(
        token: String, apnsID: String, payload: [UInt8], skippedBecause: String? = nil, dueAt: Date? = nil,
        heldBecause: String? = nil, variant: String? = nil
    ) {
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.skippedBecause = skippedBecause
        self.dueAt = dueAt
        self.heldBecause = heldBecause
        self.variant = variant
    }
}
