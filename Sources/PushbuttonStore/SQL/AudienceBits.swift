/// A device's tags and language as a 63-bit Bloom filter, SQLite's audience column `bits` (migration 70, issue
/// 35): each tag, and the locale's language, sets two bits picked by a hash of its length and its first and last
/// four characters, so a tag or locale leaf first tests `bits & mask = mask` (an integer right after the record's
/// key) and reads the tag list or the language only where that holds. Reading the list and searching it was about
/// half of a tag count's time on a million devices; with a device's few tags about 1% of the devices without the
/// tag pass the test (a tag and a language of the same text share bits: a few more pass). The hash is written in
/// SQL for the triggers (no custom function: older processes and the sqlite3 CLI fire them too) and in Swift for the
/// query; the two agree on every text without a NUL (SQLite's `length` stops at one), which a leaf checks.
enum AudienceBits {
    /// The weights of the text's characters: the first four, then the last four (last first).
    private static let weights: [Int64] = [3, 7, 13, 29, 53, 101, 197, 389]

    /// The hash of `text`: its length in Unicode scalars (as SQLite's `length`, `substr` and `unicode` count
    /// text) plus each of its first and last four scalars' values by a weight (0 past either end).
    static func hash(_ text: String) -> Int64 {
        let scalars = text.unicodeScalars.map { Int64($0.value) }
        var hash = Int64(scalars.count)
        for index in 0..<4 {
            hash += (index < scalars.count ? scalars[index] : 0) * weights[index]
            hash += (index < scalars.count ? scalars[scalars.count - 1 - index] : 0) * weights[4 + index]
        }
        return hash
    }

    /// The bits a tag or language `text` sets (one or two of bits 0–62), or nil for a text with a NUL, whose
    /// SQL hash may differ.
    static func mask(of text: String) -> Int64? {
        guard !text.unicodeScalars.contains("\0") else { return nil }
        let hash = hash(text)
        return Int64(1) << (hash % 63) | Int64(1) << ((hash / 63) % 63)
    }

    /// The bits of every text in `texts` (those of NUL-free ones: what the tests compare with SQLite's).
    static func bits(of texts: some Sequence<String>) -> Int64 {
        texts.reduce(0) { $0 | (mask(of: $1) ?? 0) }
    }

    /// ``hash(_:)`` in SQLite of the text `text` (`substr` past either end is empty, its `unicode` NULL).
    private static func hashSQL(_ text: String) -> String {
        var terms = ["length(\(text))"]
        for index in 0..<4 {
            terms.append("coalesce(unicode(substr(\(text), \(index + 1), 1)), 0) * \(weights[index])")
            terms.append("coalesce(unicode(substr(\(text), -\(index + 1), 1)), 0) * \(weights[4 + index])")
        }
        return "(" + terms.joined(separator: " + ") + ")"
    }

    /// The bits of a device row in SQLite: those of its JSON tag list `tags` (``tagsSQL(_:)``) and of its
    /// `language` (an expression: none when NULL).
    static func sql(tags: String, language: String) -> String {
        let hash = hashSQL(language)
        return "(\(tagsSQL(tags)) | coalesce((1 << (\(hash) % 63)) | (1 << ((\(hash) / 63) % 63)), 0))"
    }

    /// The bits of `json`, a device's JSON tag list (`NEW.tags` in a trigger), in SQLite: the sum of the distinct
    /// bits its strings set (SQLite has no bitwise-or aggregate); -1, every bit, for text that is not a JSON
    /// array, whose tag leaves then decide by the list alone as before.
    static func tagsSQL(_ json: String) -> String {
        let hash = hashSQL("j.value")
        return "CASE WHEN NOT json_valid(\(json)) THEN -1 WHEN json_type(\(json)) <> 'array' THEN -1 ELSE "
            + "(SELECT coalesce(sum(1 << b), 0) FROM (SELECT \(hash) % 63 AS b FROM json_each(\(json)) j "
            + "UNION SELECT (\(hash) / 63) % 63 FROM json_each(\(json)) j)) END"
    }
}
