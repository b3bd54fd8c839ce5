import Foundation

/// An app's frequency cap (`"frequency_cap": {"max": 3, "per_hours": 24}`, issue 35): a device sent `max`
/// pushes within the last `window` is sent no more campaign recipients until one of those falls out of it.
/// Decided when a recipient is leased, in SQL over the sends recorded per device (`device_sends`).
public struct FrequencyCap: Sendable, Hashable {
    /// Pushes a device may receive within ``window``.
    public var max: Int
    /// The sliding window, in seconds.
    public var window: TimeInterval

    /// A cap of `max` pushes per `window` seconds.
    public init(max: Int, window: TimeInterval) {
        self.max = max
        self.window = window
    }

    /// The reason a recipient over the cap is skipped with (its row's `reason`, the counts' key).
    public static let skippedReason = "frequency_cap"
}
