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
        let withoutKeywords = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let subtags = withoutKeywords.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)
        guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(Self.isASCIILetter) else {
            return nil
        }
        var language = first.lowercased()
        language = Self.legacyLanguages[language] ?? language
        var script: String?
        var region: String?
        for subtag in subtags.dropFirst() {
            if subtag.count == 1, subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                break  // an extension (-u-, -x-, …): nothing after it names a localization
            }
            if script == nil, region == nil, subtag.count == 4, subtag.allSatisfy(Self.isASCIILetter) {
                script = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if region == nil, subtag.count == 2, subtag.allSatisfy(Self.isASCIILetter) {
                region = subtag.uppercased()
            } else if region == nil, subtag.count == 3, subtag.allSatisfy(\.isASCII), subtag.allSatisfy(\.isNumber) {
                region = subtag
            } else if (5...8).contains(subtag.count), subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                continue  // a variant (`valencia`): iOS has no localization for one
            } else {
                return nil
            }
        }
        self.init(language: language, script: script, region: region)
    }

    /// An identifier from its parts, which must already be in canonical case.
    public init(language: String, script: String? = nil, region: String? = nil) {
        self.language = language
        self.script = script
        self.region = region
    }

    /// The canonical spelling: `pt-BR`, `zh-Hant-HK`, `nb`.
    public var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
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
        func add(_ identifier: String) {
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        for step in chain {
            for spelling in step.spellings {
                add(spelling)
                if let legacy = Self.legacyCodes[step.language] {
                    add(legacy + spelling.dropFirst(step.language.count))
                }
            }
        }
        return identifiers
    }

    /// The steps from this locale to its language, each a less specific locale.
    private var chain: [LocaleIdentifier] {
        let script = effectiveScript
        var steps = [LocaleIdentifier(language: language, script: script, region: region)]
        while let last = steps.last, let parent = last.parent { steps.append(parent) }
        if language == "nn" { steps.append(LocaleIdentifier(language: "nb")) }  // Nynorsk readers read Bokmål
        return steps
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

    /// This step's identifier and the other spellings of the same localization.
    private var spellings: [String] {
        var result = [description]
        let implied =
            script == nil || script == Self.impliedScript(language: language, region: region)
            || Self.isSingleScript(language)
        if script != nil && implied {
            result.append(LocaleIdentifier(language: language, region: region).description)
        }
        if region == nil,
            let mainRegion = Self.mainRegions[[language, script].compactMap { $0 }.joined(separator: "-")]
        {
            result.append(LocaleIdentifier(language: language, script: script, region: mainRegion).description)
            if script == nil || script == Self.impliedScript(language: language, region: mainRegion) {
                result.append(LocaleIdentifier(language: language, region: mainRegion).description)
            }
        }
        return result
    }

    private static func isASCIILetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }

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
