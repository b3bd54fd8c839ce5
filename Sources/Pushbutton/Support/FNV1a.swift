/// The 64-bit FNV-1a hash: small, stable across processes and releases (unlike `Hasher`, which is seeded
/// per process), so it can name things that must not change: dynamic category identifiers, shards, the
/// identifiers of legacy callbacks.
public struct FNV1a: Sendable, Hashable {
    /// The hash of what has been combined so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing yet: the FNV-1a 64-bit offset basis.
    public init() {}

    /// Mixes `bytes` into the hash.
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    /// Mixes `bytes` into the hash with ASCII capitals as their lowercase letters (as hashing the bytes of
    /// `lowercased()` would, for ASCII): not generic, so a caller in another module hashing a device token per
    /// recipient pays no unspecialized iteration and no lowercased copy.
    public mutating func combineASCIILowercased(_ bytes: UnsafeBufferPointer<UInt8>) {
        var hash = value
        for byte in bytes {
            let lower = byte &- 0x41 < 26 ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lower)) &* 0x0000_0100_0000_01B3
        }
        value = hash
    }

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.combine(bytes)
        return hasher.value
    }

    /// A UUID-shaped id (8-4-4-4-12 lowercase hex) from two hashes of `key`, salted `salt-1` and `salt-2`:
    /// the same key always gives the same id, so a device can name an event that a retry must not repeat.
    public static func uuidShaped(_ key: String, salt: String) -> String {
        let high = hash(Array((salt + "-1\u{0}" + key).utf8))
        let low = hash(Array((salt + "-2\u{0}" + key).utf8))
        let hex = Array(hexDigits(high) + hexDigits(low))
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }.joined(
            separator: "-")
    }

    private static func hexDigits(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
