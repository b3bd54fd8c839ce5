/// BCP 47 language tags (RFC 5646), as locale identifiers in a manifest must be: `en`, `pt-BR`,
/// `zh-Hans`, `sr-Latn-RS`, `es-419`. The check is syntactic (well-formed, not registered) and ASCII
/// only, so a valid tag can never hold a `/`, a `..`, a space or a control character: code generation
/// uses tags as directory names (`fr.lproj`).
public enum LanguageTag {
    /// Whether `text` is a well-formed BCP 47 language tag (grandfathered irregular tags excepted, and the
    /// primary language limited to the 2–3 letters that are in use).
    public static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 64 else { return false }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).map(Substring.init)
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) }) else {
            return false
        }
        var index = 0
        if subtags[0].lowercased() == "x" { return isPrivateUse(subtags[1...]) }
        // language: 2–3 letters (ISO 639; the 4–8 letter form is reserved and unused), up to three extlangs.
        guard isLetters(subtags[0]) && (2...3).contains(subtags[0].count) else { return false }
        index = 1
        var extlangs = 0
        while index < subtags.count, extlangs < 3, subtags[index].count == 3, isLetters(subtags[index]) {
            index += 1
            extlangs += 1
        }
        if index < subtags.count, subtags[index].count == 4, isLetters(subtags[index]) { index += 1 }  // script
        if index < subtags.count,
            (subtags[index].count == 2 && isLetters(subtags[index]))
                || (subtags[index].count == 3 && subtags[index].allSatisfy(\.isNumber))
        {
            index += 1  // region
        }
        while index < subtags.count, isVariant(subtags[index]) { index += 1 }
        var singletons = Set<Character>()
        while index < subtags.count, subtags[index].count == 1, subtags[index].lowercased() != "x" {
            guard singletons.insert(Character(subtags[index].lowercased())).inserted else { return false }
            index += 1
            let start = index
            while index < subtags.count, (2...8).contains(subtags[index].count) { index += 1 }
            guard index > start else { return false }
        }
        if index < subtags.count, subtags[index].lowercased() == "x" { return isPrivateUse(subtags[(index + 1)...]) }
        return index == subtags.count
    }

    private static func isPrivateUse(_ rest: ArraySlice<Substring>) -> Bool {
        !rest.isEmpty && rest.allSatisfy { (1...8).contains($0.count) }
    }

    private static func isVariant(_ subtag: Substring) -> Bool {
        (5...8).contains(subtag.count) || (subtag.count == 4 && subtag.first?.isNumber == true)
    }

    private static func isLetters(_ subtag: Substring) -> Bool {
        subtag.allSatisfy { $0.isASCII && $0.isLetter }
    }

    private static func isAlphanumeric(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }
}
