import Foundation

/// One recipient of an accepted notification: its token, the payload rendered for it and its `apns-id`,
/// fixed at intake so every attempt (and every worker after a crash) sends the same id.
public struct NewDelivery: Sendable, Hashable {
    public var token: String
    public var apnsID: String
    public var payload: [UInt8]
    /// Set when the recipient is refused at intake (an inactive device): stored as skipped, never sent.
    public var skippedBecause: String?
    /// When this recipient is due, when it differs from its notification's `sendAt` (a local-time send, a
    /// quiet-hours hold); `nil`: the notification's.
    public var dueAt: Date?
    /// Why it waits past its notification's send time (`quiet_hours`): counted as held until due.
    public var heldBecause: String?

    public init(
        token: String, apnsID: String, payload: [UInt8], skippedBecause: String? = nil, dueAt: Date? = nil,
        heldBecause: String? = nil
    ) {
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.skippedBecause = skippedBecause
        self.dueAt = dueAt
        self.heldBecause = heldBecause
    }
}
