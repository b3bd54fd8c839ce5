import PushbuttonSupport

/// What every leased recipient of a notification shares and nothing changes once the notification is
/// stored — its headers (app, topic, push type, priority, expiration, collapse id, kind; whether a request
/// waits for its outcomes), the payload its recipients share, and its variants' and languages' shared payloads
/// — kept for the notifications leased lately, so a lease does not read them again for every batch (two
/// statements fewer per lease, and one per variant and language; as many round trips fewer on PostgreSQL).
final class NotificationHeaders: Sendable {
    /// One notification's: the `notifications` row's columns as the lease selects them, and the shared
    /// payload once read (`nil`: not read yet; a notification without one reads as empty, as before).
    struct Entry: Sendable {
        var spec: [SQLValue]
        var shared: [UInt8]?
        /// Its variants' and languages' shared payloads read so far (at most ``keyedCapacity``).
        var keyed: [KeyedPayload] = []
    }

    /// Kept at most: a gateway sends to a few notifications at a time; past this the cache starts again.
    static let capacity = 256
    /// Variant and language payloads kept per notification at most (8 variants in 8 languages; a request may
    /// name more languages, whose payloads past these are read by each lease that sends them).
    static let keyedCapacity = 64
    private let entries = Locked<[String: Entry]>([:])

    init() {}

    func spec(_ id: String) -> [SQLValue]? { entries.withLock { $0[id]?.spec } }

    func shared(_ id: String) -> [UInt8]? { entries.withLock { $0[id]?.shared } }

    func keep(spec: [SQLValue], for id: String) {
        entries.withLock { entries in
            if entries[id] == nil, entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[id, default: Entry(spec: spec)].spec = spec
        }
    }

    /// Kept only with the notification's headers (read first, in the same lease).
    func keep(shared payload: [UInt8], for id: String) {
        entries.withLock { $0[id]?.shared = payload }
    }

    /// `row`'s variant's or language's shared payload, when kept.
    func keyed(for row: LeasedRow) -> [UInt8]? {
        entries.withLock { entries in entries[row.notification].flatMap { KeyedPayload.find(for: row, in: $0.keyed) } }
    }

    /// Kept only with the notification's headers (read first, in the same lease), up to ``keyedCapacity``.
    func keep(keyed payload: KeyedPayload) {
        entries.withLock { entries in
            // Two leases may read the same one at once: kept once.
            guard let kept = entries[payload.notification]?.keyed, kept.count < Self.keyedCapacity,
                !kept.contains(where: { $0.variant == payload.variant && $0.language == payload.language })
            else { return }
            entries[payload.notification]?.keyed.append(payload)
        }
    }

    /// Whether a request waits for `id`'s outcomes (`wake_on_outcome`, the eighth column), when its headers are
    /// kept.
    func wakesWaiters(_ id: String) -> Bool {
        entries.withLock { entries in (entries[id]?.spec.count ?? 0) > 7 && entries[id]?.spec[7].integer == 1 }
    }

    /// Whether `id` is a campaign, when its headers are kept (the kind is the seventh column).
    func isCampaign(_ id: String) -> Bool? {
        entries.withLock { entries in
            entries[id].map { $0.spec.count > 6 && $0.spec[6].text == NotificationSpec.Kind.campaign.rawValue }
        }
    }
}
