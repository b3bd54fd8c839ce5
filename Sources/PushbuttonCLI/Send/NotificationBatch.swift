import Foundation
import PushbuttonAPNs
import PushbuttonSupport

/// The notifications the input thread read and has not yet handed to the channel: handed over a few hundred at
/// a time (``PushbuttonAPNs/BoundedChannel/send(contentsOf:)``), one lock per batch instead of one per
/// notification. Used by the input thread only.
final class NotificationBatch {
    /// Enough to make the channel's lock rare per notification, few enough that the reader stays at most a few
    /// thousand notifications ahead (the channel's capacity plus this).
    static let size = 256
    private let channel: BoundedChannel<APNsNotification>
    /// Optional so that the channel can move each one out in place.
    private var pending: [APNsNotification?] = []
    /// The input thread's own apns-id generator: random like ``PushbuttonAPNs/APNsNotification/newID()``'s,
    /// without its lock per notification.
    private var ids = SplitMix64(seed: UInt64.random(in: 0...UInt64.max))

    init(_ channel: BoundedChannel<APNsNotification>) {
        self.channel = channel
        pending.reserveCapacity(Self.size)
    }

    /// A new random apns-id for the next notification.
    func newID() -> UUID { ids.nextUUID() }

    /// Adds `notification`; the batch goes to the channel once full.
    func append(_ notification: consuming APNsNotification) {
        pending.append(consume notification)  // moved in, not copied
        if pending.count >= Self.size { channel.send(contentsOf: &pending) }
    }

    /// Hands over what is pending: before the input thread may wait for more input (a slow pipe's lines are
    /// sent as they come), and at the end.
    func flush() {
        if !pending.isEmpty { channel.send(contentsOf: &pending) }
    }
}
