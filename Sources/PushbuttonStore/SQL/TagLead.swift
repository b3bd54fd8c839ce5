/// The rare tag an audience count can start from (issue 35): a segment that is a tag, or an `and` with a tag among
/// its parts, reaches only devices with that tag, so when the tag has few devices the count reads them through the
/// tag index (`device_tags`' key) and tests the rest of the segment on their rows alone, instead of testing every
/// active device of the app. A tag's size is a bounded count of its rows in the tag index, so finding the lead reads
/// at most ``limit`` index entries per tag, however common the tag.
struct TagLead: Equatable {
    /// Tag-index rows (the app's devices with the tag, inactive ones too) under which a tag is rare enough to lead.
    /// A lead costs a key lookup of each of its devices, a scan a test of each active device: at a million devices
    /// on PostgreSQL 10,000 lookups took half as long as the scan, so this many about as long (Benchmarks/README.md).
    /// The limit does not scale with the app: in a much smaller app a scan can be cheaper than a lead near it.
    static let limit = 20_000

    /// The tag the count starts from.
    let tag: String
    /// Its rows in the tag index (fewer than the limit it was found under).
    let rows: Int
    /// What the tag's devices must also satisfy: the segment's other parts (an empty `and` when none).
    let rest: Segment

    /// The rarest of the tags `segment` requires (itself, or the parts of its top-level `and`s) with fewer than
    /// `limit` rows in `app`'s tag index, or nil when there is none. Each tag is counted up to the rows of the
    /// rarest found so far, so later probes stop sooner.
    static func find(in segment: Segment, app: String, limit: Int = TagLead.limit, connection: any SQLConnection)
        throws(StoreError) -> TagLead?
    {
        let parts = conjuncts(of: segment)
        var seen: Set<String> = []
        var best: (tag: String, rows: Int)?
        for case .tag(let tag) in parts where seen.insert(tag).inserted {
            let bound = best?.rows ?? limit
            guard bound > 0 else { break }
            let rows = Int(
                try connection.query(
                    "SELECT COUNT(*) FROM (SELECT 1 FROM device_tags WHERE app = ? AND tag = ? LIMIT ?) AS t",
                    [.text(app), .text(tag), .integer(Int64(bound))]
                ).first?[0].integer ?? Int64(bound))
            if rows < bound { best = (tag, rows) }
        }
        guard let best else { return nil }
        return TagLead(tag: best.tag, rows: best.rows, rest: .and(parts.filter { $0 != .tag(best.tag) }))
    }

    /// The parts a device must satisfy all of: `segment`'s nested `and`s flattened (an `and` within an `and` is
    /// one conjunction), or the segment itself.
    static func conjuncts(of segment: Segment) -> [Segment] {
        guard case .and(let parts) = segment else { return [segment] }
        return parts.flatMap(conjuncts)
    }
}
