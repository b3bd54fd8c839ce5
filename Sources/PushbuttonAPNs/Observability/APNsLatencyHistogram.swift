import Foundation

/// Latencies in fixed buckets (as a Prometheus histogram keeps them): counts per upper bound in
/// milliseconds, plus the total, the count and the largest value. Fixed size: recording allocates nothing.
public struct APNsLatencyHistogram: Sendable, Hashable {
    /// The buckets' upper bounds in milliseconds; a last, unbounded bucket follows.
    public static let boundsMilliseconds: [Double] = [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000,
    ]

    /// Counts per bucket: `counts[i]` holds values at most `boundsMilliseconds[i]` and more than the bound
    /// before; the last holds the rest.
    public private(set) var counts = [Int](repeating: 0, count: APNsLatencyHistogram.boundsMilliseconds.count + 1)
    /// How many latencies were recorded.
    public private(set) var count = 0
    /// Their sum, in milliseconds.
    public private(set) var totalMilliseconds: Double = 0
    /// The largest, in milliseconds.
    public private(set) var maximumMilliseconds: Double = 0

    /// An empty histogram.
    public init() {}

    /// Counts one latency in its bucket.
    public mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let value = max(0, Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        let index = Self.boundsMilliseconds.firstIndex { value <= $0 } ?? Self.boundsMilliseconds.count
        counts[index] += 1
        count += 1
        totalMilliseconds += value
        maximumMilliseconds = max(maximumMilliseconds, value)
    }

    /// The mean, in milliseconds (0 with no values).
    public var meanMilliseconds: Double { count == 0 ? 0 : totalMilliseconds / Double(count) }

    /// The upper bound of the bucket that holds the `quantile` (0...1) of the values: the quantile is at
    /// most this (the largest value, for the last bucket). 0 with no values.
    public func upperBound(ofQuantile quantile: Double) -> Double {
        guard count > 0 else { return 0 }
        let wanted = Int((Double(count) * min(max(quantile, 0), 1)).rounded(.up))
        var seen = 0
        for (index, bucket) in counts.enumerated() {
            seen += bucket
            if seen >= max(wanted, 1) {
                return index < Self.boundsMilliseconds.count
                    ? min(Self.boundsMilliseconds[index], maximumMilliseconds) : maximumMilliseconds
            }
        }
        return maximumMilliseconds
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
