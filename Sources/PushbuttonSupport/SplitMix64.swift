import Foundation

/// A small, fast, seedable generator (SplitMix64): the mock's faults and the tests' random inputs repeat
/// from a seed, and `apns-id`s are made without a system call each.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in 0..<1.
    package mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A version-4 (random) UUID.
    package mutating func nextUUID() -> UUID {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF | 0x4000).bigEndian
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000).bigEndian
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: high, toByteOffset: 0, as: UInt64.self)
            bytes.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: uuid)
    }
}
