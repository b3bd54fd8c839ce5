/// A language identifier as iOS writes it (`en`, `pt-BR`, `zh-Hant-HK`), and the localizations iOS falls
/// back to, most specific first, when an app has no translation for it.
///
/// Parsing accepts `_` as well as `-`, any letter case, ICU keywords (`@calendar=…`) and BCP 47 extensions
/// (`-u-…`, ignored), and replaces the legacy codes `iw`, `in`, `ji`, `tl` and `no` by `he`, `id`, `yi`, `fil`
/// and `nb` (iOS calls Norwegian Bokmål `nb`).
public struct LocaleIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The language, lowercased: `en`, `zh`, `nb`.
    public let language: String
    /// The script as written (`Hant`), or `nil`; see ``effectiveScript`` for the one implied.
    public let script: String?
    /// The region, uppercased (`BR`), or a UN M.49 area (`419`), or `nil`.
    public let region: String?

    /// Parses `text`; `nil` when it is not a language identifier (`Base`, `english`, `e-n`).
    public init?(_ text: String) {
        // Bytes, not Characters: identifiers are ASCII, and this runs on every lookup of a localized text.
        let bytes = text.utf8
        var language: String?
        var script: String?
        var region: String?
        var start = bytes.startIndex
        while true {
            let end = bytes[start...].firstIndex { Self.separators.contains($0) } ?? bytes.endIndex
            let subtag = bytes[start..<end]
            let letters = subtag.allSatisfy(Self.isLetter)
            if language == nil {
                guard (2...3).contains(subtag.count), letters else { return nil }
                language = String(decoding: subtag, as: UTF8.self).lowercased()
            } else if subtag.count == 1, letters || subtag.allSatisfy(Self.isDigit) {
                break  // an extension (-u-, -x-, …): nothing after it names a localization
            } else if script == nil, region == nil, subtag.count == 4, letters {
                let name = String(decoding: subtag, as: UTF8.self)
                script = name.prefix(1).uppercased() + name.dropFirst().lowercased()
            } else if region == nil, subtag.count == 2, letters {
                region = String(decoding: subtag, as: UTF8.self).uppercased()
            } else if region == nil, subtag.count == 3, subtag.allSatisfy(Self.isDigit) {
                region = String(decoding: subtag, as: UTF8.self)
            } else if !(5...8).contains(subtag.count) || !subtag.allSatisfy({ Self.isLetter($0) || Self.isDigit($0) }) {
                return nil  // not a variant (`valencia`) either, which iOS has no localization for
            }
            // ICU keywords (`@calendar=…`) name no localization either.
            guard end != bytes.endIndex, bytes[end] != UInt8(ascii: "@") else { break }
            start = bytes.index(after: end)
        }
        guard let language else { return nil }
        self.init(language: Self.legacyLanguages[language] ?? language, script: script, region: region)
    }

    /// An identifier from its parts, which must already be in canonical case.
    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// The canonical spelling: `pt-BR`, `zh-Hant-HK`, `nb`.
    public var description: String {
        var text = language
        if let script { text += "-" + script }
        if let region { text += "-" + region }
        return text
    }

    /// The script, stated or implied: `zh-TW` and `zh-HK` are Traditional Chinese (`Hant`), other Chinese is
    /// Simplified (`Hans`); `nil` for a language written in one script.
    public var effectiveScript: String? {
        if let script { return script }
        guard language == "zh" else { return Self.defaultScripts[language] }
        return region.map(Self.traditionalChineseRegions.contains) == true ? "Hant" : "Hans"
    }

    /// Whether text in this locale runs right to left (Arabic, Hebrew, Persian, Urdu, …; a stated script decides).
    public var isRightToLeft: Bool {
        if let script { return Self.rightToLeftScripts.contains(script) }
        return Self.rightToLeftLanguages.contains(language)
    }

    /// The identifiers to look a translation up under, most specific first, as iOS falls back: the locale
    /// itself, then its regional parent (`en-AU` → `en-GB`, `es-MX` → `es-419`, `pt-AO` → `pt-PT`,
    /// `zh-MO` → `zh-HK`), then the language in its script (`zh-HK` → `zh-Hant`), then the language
    /// (`pt-PT` → `pt`, `en-GB` → `en`). Each step is also tried in the other spellings tables use: without
    /// an implied script (`zh-TW` for `zh-Hant-TW`), with the language's main region (`pt-BR` for `pt`,
    /// `zh-TW` for `zh-Hant`), and with the legacy code (`no` for `nb`, `iw` for `he`). A non-default script
    /// never falls back to the bare language: Traditional Chinese does not show Simplified.
    public var fallbacks: [String] {
        var identifiers: [String] = []
        forEachFallback { identifier in
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
            return false
        }
        return identifiers
    }

    /// Calls `body` with each of ``fallbacks`` in order (some more than once) until it returns `true`;
    /// returns whether it did. A lookup stops at its first hit without building the whole list.
    @discardableResult
    func forEachFallback(_ body: (String) -> Bool) -> Bool {
        var step: LocaleIdentifier? = LocaleIdentifier(language: language, script: effectiveScript, region: region)
        while let current = step {
            if current.forEachSpelling(body) { return true }
            step = current.parent
        }
        guard language == "nn" else { return false }
        return LocaleIdentifier(language: "nb").forEachSpelling(body)  // Nynorsk readers read Bokmål
    }

    /// The next less specific locale, or `nil` at the language (or at a script that is not the language's default).
    private var parent: LocaleIdentifier? {
        if let region {
            if let parentRegion = Self.regionalParent(language: language, script: script, region: region) {
                return LocaleIdentifier(language: language, script: script, region: parentRegion)
            }
            return LocaleIdentifier(language: language, script: script)
        }
        guard let script else { return nil }
        guard script == Self.impliedScript(language: language, region: nil) || Self.isSingleScript(language) else {
            return nil
        }
        return LocaleIdentifier(language: language)
    }

    /// Calls `body` with this step's identifier and the other spellings of the same localization, each also
    /// with the language's legacy code, until it returns `true`.
    private func forEachSpelling(_ body: (String) -> Bool) -> Bool {
        let legacy = Self.legacyCodes[language]
        func offer(_ identifier: LocaleIdentifier) -> Bool {
            if body(identifier.description) { return true }
            guard let legacy else { return false }
            return body(
                LocaleIdentifier(language: legacy, script: identifier.script, region: identifier.region).description)
        }
        if offer(self) { return true }
        let implied =
            script == nil || script == Self.impliedScript(language: language, region: region)
            || Self.isSingleScript(language)
        if script != nil && implied, offer(LocaleIdentifier(language: language, region: region)) { return true }
        guard region == nil, let mainRegion = Self.mainRegions[script.map { language + "-" + $0 } ?? language] else {
            return false
        }
        if offer(LocaleIdentifier(language: language, script: script, region: mainRegion)) { return true }
        guard script == nil || script == Self.impliedScript(language: language, region: mainRegion) else {
            return false
        }
        return offer(LocaleIdentifier(language: language, region: mainRegion))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
    }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static let separators: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@")]

    /// Whether `text` is spelled as ``description`` spells it (`pt-BR`, not `pt_br`, `iw` or `zh-hant`), decided
    /// without building an identifier: a lookup respells a table's keys only when one of them is not.
    static func isCanonical(_ text: String) -> Bool {
        var subtag = 0
        var hasRegion = false
        var start = text.utf8.startIndex
        while start <= text.utf8.endIndex {
            let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "-")) ?? text.utf8.endIndex
            let bytes = text.utf8[start..<end]
            switch (subtag, bytes.count) {
            case (0, 2...3):
                guard bytes.allSatisfy(isLowercaseLetter), !isLegacyCode(bytes) else { return false }
            case (1, 4):
                guard let initial = bytes.first, isLetter(initial), !isLowercaseLetter(initial),
                    bytes.dropFirst().allSatisfy(isLowercaseLetter)
                else { return false }
            case (1...2, 2) where !hasRegion:
                guard bytes.allSatisfy({ isLetter($0) && !isLowercaseLetter($0) }) else { return false }
                hasRegion = true
            case (1...2, 3) where !hasRegion:
                guard bytes.allSatisfy(isDigit) else { return false }
                hasRegion = true
            default: return false
            }
            guard end != text.utf8.endIndex else { return true }
            start = text.utf8.index(after: end)
            subtag += 1
        }
        return false
    }

    /// Whether a lowercase language subtag is one of ``legacyLanguages`` (all two letters), without a String.
    private static func isLegacyCode(_ bytes: Substring.UTF8View) -> Bool {
        guard bytes.count == 2, let first = bytes.first, let second = bytes.last else { return false }
        return legacyTwoLetterCodes.contains(UInt16(first) << 8 | UInt16(second))
    }
    private static let legacyTwoLetterCodes: Set<UInt16> = Set(
        legacyLanguages.keys.map { code in code.utf8.reduce(0) { $0 << 8 | UInt16($1) } })

    /// The script a language writes without a script subtag (only for languages written in several).
    private static func impliedScript(language: String, region: String?) -> String? {
        guard language == "zh" else { return defaultScripts[language] }
        return region.map(traditionalChineseRegions.contains) == true ? "Hant" : "Hans"
    }

    private static func isSingleScript(_ language: String) -> Bool {
        language != "zh" && defaultScripts[language] == nil
    }

    /// Regional parents iOS uses before the bare language (Apple's TN2418: `en-IN` falls back to `en-GB`).
    private static func regionalParent(language: String, script: String?, region: String) -> String? {
        switch language {
        case "en" where britishEnglishRegions.contains(region): return "GB"
        case "es" where latinAmericanSpanishRegions.contains(region): return "419"
        case "pt" where region != "BR" && region != "PT": return "PT"
        case "zh" where region == "MO" && script == "Hant": return "HK"
        default: return nil
        }
    }

    /// English-speaking regions whose English follows British spelling and wording.
    private static let britishEnglishRegions: Set<String> = [
        "AU", "NZ", "IN", "IE", "ZA", "SG", "HK", "MY", "PK", "NG", "KE", "MT", "150",
    ]
    /// Spanish-speaking regions of the Americas (and the US), which share Latin American Spanish.
    private static let latinAmericanSpanishRegions: Set<String> = [
        "MX", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "NI", "PA", "PE", "PR", "PY", "SV",
        "US", "UY", "VE",
    ]
    private static let traditionalChineseRegions: Set<String> = ["TW", "HK", "MO"]
    /// The region a bare language's localization is written for (iOS's `pt` is Brazilian Portuguese).
    private static let mainRegions: [String: String] = [
        "en": "US", "es": "ES", "pt": "BR", "fr": "FR", "de": "DE", "it": "IT", "nl": "NL", "nb": "NO",
        "zh-Hans": "CN", "zh-Hant": "TW",
    ]
    /// Languages written in several scripts, and the one they use without a subtag.
    private static let defaultScripts: [String: String] = [
        "sr": "Cyrl", "uz": "Latn", "az": "Latn", "bs": "Latn", "pa": "Guru", "ms": "Latn", "mn": "Cyrl",
        "ku": "Latn", "sd": "Arab", "ks": "Arab",
    ]
    private static let legacyLanguages = ["iw": "he", "in": "id", "ji": "yi", "tl": "fil", "no": "nb"]
    /// Codes older tables use for the same language, tried after the current one.
    private static let legacyCodes = ["he": "iw", "id": "in", "yi": "ji", "fil": "tl", "nb": "no"]
    private static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "fa", "ur", "ps", "yi", "ckb", "dv", "sd", "ug", "ks",
    ]
    private static let rightToLeftScripts: Set<String> = ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg"]
}
