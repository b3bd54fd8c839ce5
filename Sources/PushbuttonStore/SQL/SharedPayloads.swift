/// The payloads one intake's recipients share: the notification's (recipients without data of their own), for
/// an experiment's test each variant's, and each `"localized"` language's (per variant). A recipient whose
/// payload is its shared one gets no `payloads` row.
struct SharedPayloads {
    /// The notification's shared payload, once stored or read.
    var notification: [UInt8]?
    /// Each variant's shared payload, by name, once stored or read.
    var variants: [String: [UInt8]] = [:]
    /// Each language's shared payload, by variant (`""` outside an experiment's test) and language, once
    /// stored or read.
    var languages: [String: [String: [UInt8]]] = [:]

    /// The shared payload `delivery`'s key names (its variant's and language's), once stored or read.
    func payload(for delivery: NewDelivery) -> [UInt8]? {
        if let language = delivery.language { return languages[delivery.variant ?? ""]?[language] }
        if let variant = delivery.variant { return variants[variant] }
        return notification
    }

    /// Whether `delivery` needs a payload of its own (comparing buffers first: shared ones are one buffer).
    func isOwn(_ delivery: NewDelivery) -> Bool {
        delivery.payload != payload(for: delivery)
    }
}
