/// "Did you mean …?" suggestions by edit distance.
package enum Suggestion {
    /// The candidate closest to `word` (case-insensitive Levenshtein distance), if it is close enough
    /// to be a likely typo: at most a third of the word's length, and at least 1 allowed.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased().unicodeScalars)
        let limit = max(1, target.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `"; did you mean 'x'?"` or an empty string.
    package static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
    /// transpositions (`lnit` → `lint`) each cost one.
    static func editDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var beforePrevious = [Int](repeating: 0, count: rhs.count + 1)
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let substitution = previous[j - 1] + (lhs[i - 1] == rhs[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[rhs.count]
    }
}
