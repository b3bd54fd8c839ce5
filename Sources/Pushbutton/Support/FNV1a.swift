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

    /// The hash of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hasher = FNV1a()
        hasher.combine(bytes)
        return hasher.value
    }
}
