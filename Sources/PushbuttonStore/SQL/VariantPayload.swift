/// An experiment variant's shared payload: its notification, its name and the payload.
struct VariantPayload {
    var notification: String
    var variant: String
    var payload: [UInt8]

    /// The payload of `variant` of `notification` among `payloads` (a lease holds a few: found by comparing
    /// strings that are mostly the same buffers, not by hashing a key per recipient).
    static func find(_ notification: String, _ variant: String, in payloads: [VariantPayload]) -> [UInt8]? {
        payloads.first { $0.variant == variant && $0.notification == notification }?.payload
    }
}
