import Foundation

/// The `apns-expiration` header: until when APNs keeps trying a device that is offline.
public struct APNsExpiration: Sendable, Hashable, CustomStringConvertible {
    /// The header's value: epoch seconds, or 0 for "deliver once or not at all".
    public var epochSeconds: Int64

    /// An expiration at `epochSeconds` (0: deliver once or not at all).
    public init(epochSeconds: Int64) { self.epochSeconds = epochSeconds }

    /// Delivered at once if the device is reachable, otherwise dropped (0).
    public static let immediately = APNsExpiration(epochSeconds: 0)

    /// Kept until `date` (to the second).
    public static func at(_ date: Date) -> APNsExpiration {
        APNsExpiration(epochSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Kept for `duration` from `now`.
    public static func after(_ duration: Duration, from now: Date = Date()) -> APNsExpiration {
        let (seconds, _) = duration.components
        return APNsExpiration(epochSeconds: Int64(now.timeIntervalSince1970.rounded(.down)) + seconds)
    }

    /// The header's value: the epoch seconds as a decimal number.
    public var description: String { String(epochSeconds) }
}
