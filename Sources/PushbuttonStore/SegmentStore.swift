import Foundation

/// Segments (issue 35's "to whom"): counting and paging through the active devices an expression reaches, in
/// SQL, and the app's saved segments.
public protocol SegmentStore: Sendable {
    /// How many of `app`'s active devices `segment` reaches; `now` dates its `last_seen_days` and `tapped`.
    func countDevices(app: String, segment: Segment, now: Date) throws(StoreError) -> Int

    /// Up to `limit` of the active devices `segment` reaches, in token order after `after` (a page of a
    /// keyset walk: no offset, no device read twice), with their registered locales.
    func devices(app: String, segment: Segment, now: Date, after: String?, limit: Int) throws(StoreError)
        -> [(token: String, locale: String?)]

    /// The registered locales of those of `tokens` that are registered for `app` (absent: not registered).
    func locales(app: String, tokens: [String]) throws(StoreError) -> [String: String]

    /// Saves (or replaces) a segment.
    func saveSegment(app: String, _ segment: SavedSegment) throws(StoreError)

    /// A saved segment, or nil.
    func savedSegment(app: String, name: String) throws(StoreError) -> SavedSegment?

    /// The app's saved segments by name.
    func savedSegments(app: String) throws(StoreError) -> [SavedSegment]

    /// Deletes a saved segment; whether there was one.
    func deleteSegment(app: String, name: String) throws(StoreError) -> Bool
}
