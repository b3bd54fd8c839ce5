import Foundation

/// One recipient of an accepted notification: its token, the payload rendered for it and its `apns-id`,
/// fixed at intake so every attempt (and every worker after a crash) sends the same id.
public struct NewDelivery: Sendable, Hashable {
    public var token: String
    public var apnsID: String
    public var payload: [UInt8]
    /// Set when the recipient is refused at intake (an inactive device): stored as skipped, never sent.
    public var skippedBecause: String?

    public init(token: String, apnsID: String, payload: [UInt8], skippedBecause: String? = nil) {
        self.token = token
        self.apnsID = apnsID
        self.payload = payload
        self.skippedBecause = skippedBecause
    }
}
