/// The payloads one intake's recipients share: the notification's (recipients without data of their own) and,
/// for an experiment's test, each variant's. A recipient whose payload is its shared one gets no `payloads` row.
struct SharedPayloads {
    /// The notification's shared payload, once stored or read.
    var notification: [UInt8]?
    /// Each variant's shared payload, by name, once stored or read.
    var variants: [String: [UInt8]] = [:]

    /// Whether `delivery` needs a payload of its own (comparing buffers first: shared ones are one buffer).
    func isOwn(_ delivery: NewDelivery) -> Bool {
        if let variant = delivery.variant { return delivery.payload != variants[variant] }
        return delivery.payload != notification
    }
}
