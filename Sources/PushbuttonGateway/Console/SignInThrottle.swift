import Foundation
import PushbuttonSupport

/// Slows down guessing at the console's sign-in: after ``maximumFailures`` wrong keys from one address within
/// ``window``, that address is refused (429 with `Retry-After`) until the window has passed since its first
/// failure. A right key clears the address's failures. The addresses followed are bounded (a flood of
/// addresses cannot grow memory): when full, the entry whose window ends first makes room.
///
/// Keys are 256-bit, so this is not what keeps them secret; it keeps a guessing client from costing the
/// gateway a key lookup and a page per request, as fast as it can send them.
final class SignInThrottle: Sendable {
    static let maximumFailures = 10
    static let window: TimeInterval = 60
    static let maximumAddresses = 10_000

    private struct Failures {
        var count: Int
        var since: Date
    }

    private let failures = Locked<[String: Failures]>([:])
    private let capacity: Int

    init(capacity: Int = SignInThrottle.maximumAddresses) { self.capacity = capacity }

    /// How long `address` must wait before it may try again, or nil if it may try now.
    func retryAfter(_ address: String, now: Date) -> TimeInterval? {
        failures.withLock { all in
            guard let entry = all[address] else { return nil }
            let ends = entry.since + Self.window
            guard now < ends else {
                all[address] = nil
                return nil
            }
            return entry.count >= Self.maximumFailures ? ends.timeIntervalSince(now) : nil
        }
    }

    /// Counts a wrong key from `address`.
    func failed(_ address: String, now: Date) {
        failures.withLock { all in
            if var entry = all[address], now < entry.since + Self.window {
                entry.count += 1
                all[address] = entry
                return
            }
            if all[address] == nil && all.count >= capacity {
                all = all.filter { now < $0.value.since + Self.window }
                if all.count >= capacity, let first = all.min(by: { $0.value.since < $1.value.since }) {
                    all[first.key] = nil
                }
            }
            all[address] = Failures(count: 1, since: now)
        }
    }

    /// A right key from `address`: its failures are forgotten.
    func succeeded(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }

    /// How many addresses are followed (for tests of the bound).
    var followed: Int { failures.withLock { $0.count } }
}
