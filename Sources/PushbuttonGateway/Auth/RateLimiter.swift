import Foundation
import PushbuttonSupport

/// Token buckets by name (an app's key kind, or a device token): each refills at its rate and holds
/// ``RateLimits/burstSeconds`` of it. The buckets kept are bounded, so a flood of made-up device tokens cannot
/// grow memory: when full, the buckets that have refilled (idle ones, which a new bucket would equal) are
/// dropped first, then the least recently used.
final class RateLimiter: Sendable {
    static let maximumBuckets = 100_000

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let buckets = Locked<[String: Bucket]>([:])
    private let capacity: Int

    init(capacity: Int = RateLimiter.maximumBuckets) { self.capacity = capacity }

    /// Takes one request from `name`'s bucket at `perMinute`: nil when allowed, else the seconds until one
    /// is (for `Retry-After`). A rate of 0 is no limit.
    func take(_ name: String, perMinute: Int, now: Date) -> TimeInterval? {
        guard perMinute > 0 else { return nil }
        let rate = Double(perMinute) / 60
        let size = max(Double(RateLimits.minimumBurst), rate * Double(RateLimits.burstSeconds))
        return buckets.withLock { all in
            var bucket = all[name] ?? Bucket(tokens: size, updated: now)
            if all[name] == nil && all.count >= capacity { makeRoom(&all, now: now, rate: rate, size: size) }
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(size, bucket.tokens + elapsed * rate)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                all[name] = bucket
                return (1 - bucket.tokens) / rate
            }
            bucket.tokens -= 1
            all[name] = bucket
            return nil
        }
    }

    private func makeRoom(_ all: inout [String: Bucket], now: Date, rate: Double, size: Double) {
        all = all.filter { $0.value.tokens + now.timeIntervalSince($0.value.updated) * rate < size }
        if all.count >= capacity, let oldest = all.min(by: { $0.value.updated < $1.value.updated }) {
            all[oldest.key] = nil
        }
    }

    /// How many buckets are kept (for tests of the bound).
    var count: Int { buckets.withLock { $0.count } }
}
