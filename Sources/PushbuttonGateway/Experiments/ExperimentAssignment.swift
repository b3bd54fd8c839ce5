import Pushbutton

/// Which variant a device gets in an experiment: a pure function of (experiment id, device token), so any
/// process, any page and any resend gives the same answer, and a test computes the expected split.
///
/// The rule: the 64-bit FNV-1a hash of the UTF-8 bytes of `"<salt>\0<experiment id>\0<token>"` (token in
/// lowercase hex), passed through the MurmurHash3 64-bit finalizer (`fmix64`, so every bit of the input moves
/// the low ones), modulo 10,000 is the device's bucket. The variant's bucket (salt `variant`) falls into the
/// variants' shares taken in order, each `share × 100` buckets wide, then the holdout's. The test group (salt
/// `test`, an independent hash) is the devices whose bucket is below `test_share × 100`. Never Swift's
/// `Hasher`, which is seeded per process.
struct ExperimentAssignment: Sendable {
    /// Buckets of the hash: a share of 1% is 100 of them.
    static let buckets: UInt64 = 10_000

    /// The experiment (its campaign's id).
    let experiment: String
    /// Each variant's share in percent, in order.
    let shares: [Int]
    /// The test group's share in percent; `nil`: everyone is in the test.
    let testShare: Int?
    /// The hashes of `"variant\0<experiment>\0"` and `"test\0<experiment>\0"`: the same for every device, so
    /// hashed once per page, not once per recipient.
    private let variantPrefix: FNV1a
    private let testPrefix: FNV1a

    /// The assignment of `experiment` with these shares.
    init(experiment: String, shares: [Int], testShare: Int?) {
        self.experiment = experiment
        self.shares = shares
        self.testShare = testShare
        variantPrefix = Self.prefix(salt: "variant", experiment: experiment)
        testPrefix = Self.prefix(salt: "test", experiment: experiment)
    }

    /// Where a device falls.
    enum Place: Equatable, Sendable {
        /// The variant at this index.
        case variant(Int)
        /// The holdout: sent nothing.
        case holdout
    }

    /// The bucket 0..<10,000 of `token` under `salt`.
    static func bucket(salt: String, experiment: String, token: String) -> Int {
        bucket(prefix: prefix(salt: salt, experiment: experiment), token: token)
    }

    /// The hash of `"<salt>\0<experiment id>\0"`.
    private static func prefix(salt: String, experiment: String) -> FNV1a {
        var hash = FNV1a()
        hash.combine(Array(salt.utf8))
        hash.combine(CollectionOfOne(0))
        hash.combine(Array(experiment.utf8))
        hash.combine(CollectionOfOne(0))
        return hash
    }

    /// The bucket of `token` after `prefix`. A token is ASCII hex (lowercased here byte by byte, as
    /// `lowercased()` would: no string made per recipient); anything else goes through `lowercased()`.
    private static func bucket(prefix: FNV1a, token: String) -> Int {
        var hash = prefix
        var token = token
        let ascii = token.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            hash.combineASCIILowercased(bytes)
            return true
        }
        if !ascii { hash.combine(Array(token.lowercased().utf8)) }
        return Int(mix(hash.value) % buckets)
    }

    /// MurmurHash3's 64-bit finalizer.
    static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xff51_afd7_ed55_8ccd
        x ^= x >> 33
        x &*= 0xc4ce_b9fe_1a85_ec53
        x ^= x >> 33
        return x
    }

    /// The device's variant, or the holdout.
    func place(of token: String) -> Place {
        let bucket = Self.bucket(prefix: variantPrefix, token: token)
        var upper = 0
        for (index, share) in shares.enumerated() {
            upper += share * 100
            if bucket < upper { return .variant(index) }
        }
        return .holdout
    }

    /// Whether the device is in the test group (always, without a test phase).
    func inTestGroup(_ token: String) -> Bool {
        guard let testShare else { return true }
        return Self.bucket(prefix: testPrefix, token: token) < testShare * 100
    }
}
