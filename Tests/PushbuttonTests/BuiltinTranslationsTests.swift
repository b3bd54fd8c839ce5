import Testing

@testable import Pushbutton

/// The built-in titles: every title in every locale, each locale in its own language and script, regional
/// tables that only hold real differences, and nothing much longer than its English.
@Suite struct BuiltinTranslationsTests {
    /// Every localized text of the built-in categories: titles, and the reply button's send title and placeholder.
    static let texts: [(name: String, text: LocalizedText)] = BuiltinCategories.all().flatMap(\.actions).flatMap {
        action in
        [(action.identifier, action.title)]
            + (action.textInput.map {
                [("\(action.identifier) send", $0.buttonTitle), ("\(action.identifier) placeholder", $0.placeholder)]
            } ?? [])
    }

    /// The languages iOS offers as a system language (the issue's list), by identifier.
    static let iOSLanguages = [
        "ar", "ca", "hr", "cs", "da", "nl", "en", "en-GB", "en-AU", "en-IN", "fi", "fr", "fr-CA", "de", "el", "he",
        "hi", "hu", "id", "it", "ja", "ko", "ms", "nb", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "es", "es-MX",
        "es-419", "sv", "th", "tr", "uk", "vi", "zh-Hans", "zh-Hant", "zh-HK",
    ]

    @Test func everyTitleIsGivenInEveryLocaleIOSShips() {
        #expect(Set(BuiltinCategories.locales) == Set(Self.iOSLanguages))
        #expect(BuiltinCategories.locales.count == 41)
        #expect(Self.texts.count > 60)
        for (name, text) in Self.texts {
            #expect(Set(text.translations.keys) == Set(BuiltinCategories.locales), "\(name)")
            for (locale, title) in text.translations {
                #expect(!title.isEmpty && title == title.trimmingSpaces, "\(name) in \(locale): '\(title)'")
            }
        }
    }

    @Test func everyLocaleTakesItsWordsFromATableOfItsOwnLanguage() throws {
        for locale in BuiltinTranslations.locales {
            let language = try #require(LocaleIdentifier(locale)).language
            for key in BuiltinTranslations.english.keys {
                let source = BuiltinTranslations.sourceTable(for: key, locale: locale)
                #expect(
                    source.flatMap { LocaleIdentifier($0)?.language } == language,
                    "\(key) in \(locale): \(source ?? "none")")
            }
        }
    }

    @Test func languageTablesAreCompleteAndRegionalOnesOnlyHoldDifferences() throws {
        let keys = Set(BuiltinTranslations.english.keys)
        #expect(keys.count == 33)
        for (locale, table) in BuiltinTranslations.tables {
            let identifier = try #require(LocaleIdentifier(locale))
            #expect(identifier.description == locale, "tables are keyed by canonical identifiers")
            #expect(Set(table.keys).isSubset(of: keys), "\(locale): \(Set(table.keys).subtracting(keys))")
            if identifier.region == nil {
                #expect(Set(table.keys) == keys, "\(locale) lacks \(keys.subtracting(table.keys).sorted())")
                continue
            }
            #expect(!table.isEmpty, "\(locale): a regional table with no differences is not needed")
            let parent = try #require(
                identifier.fallbacks.first { $0 != locale && BuiltinTranslations.tables[$0] != nil })
            for (key, title) in table {
                let inherited = BuiltinTranslations.sourceTable(for: key, locale: parent).flatMap {
                    BuiltinTranslations.tables[$0]?[key]
                }
                #expect(title != inherited, "\(locale).\(key) repeats \(parent)'s '\(title)'")
            }
        }
    }

    @Test func regionalVariantsUseTheirRegionsWords() throws {
        func title(_ name: String, _ locale: String) -> String? {
            BuiltinCategories.all().flatMap(\.actions).first { $0.identifier == "pushbutton." + name }?
                .title.resolved(for: locale)
        }
        #expect(title("share", "pt-BR") == "Compartilhar" && title("share", "pt-PT") == "Partilhar")
        #expect(title("share", "pt-AO") == "Partilhar")
        #expect(
            title("add", "es") == "Añadir" && title("add", "es-MX") == "Agregar" && title("add", "es-AR") == "Agregar")
        #expect(title("shop_now", "fr") == "Voir la boutique" && title("shop_now", "fr-CA") == "Magasiner")
        #expect(title("add_calendar", "zh-TW") == "加入行事曆" && title("add_calendar", "zh-HK") == "加入日曆")
        #expect(title("add_calendar", "zh-MO") == "加入日曆")
        #expect(title("delete", "zh-Hans") == "删除" && title("delete", "zh-Hant") == "刪除")
        #expect(title("reply", "en-AU") == "Reply" && title("reply", "nb") == "Svar" && title("reply", "no") == "Svar")
        #expect(title("reply", "he") == "תשובה" && title("reply", "iw") == "תשובה")
    }

    @Test func titlesAreWrittenInTheLocalesScript() {
        for (name, text) in Self.texts {
            for (locale, title) in text.translations {
                let script = Self.script(of: locale)
                let foreign = title.unicodeScalars.filter { scalar in
                    scalar.properties.isAlphabetic && !script.contains { $0.contains(scalar.value) }
                }
                #expect(foreign.isEmpty, "\(name) in \(locale): '\(title)' has \(foreign.map { String($0) })")
            }
        }
    }

    @Test func simplifiedAndTraditionalChineseDoNotMix() {
        // Characters whose Simplified and Traditional forms differ, among those the titles use.
        let pairs: [(simplified: Character, traditional: Character)] = [
            ("载", "載"), ("删", "刪"), ("评", "評"), ("类", "類"), ("内", "內"), ("订", "訂"), ("关", "關"),
            ("购", "購"), ("选", "選"), ("预", "預"), ("发", "發"), ("绝", "絕"), ("欢", "歡"), ("难", "難"),
        ]
        for (name, text) in Self.texts {
            for (locale, title) in text.translations where locale.hasPrefix("zh") {
                let wrong = locale == "zh-Hans" ? pairs.map(\.traditional) : pairs.map(\.simplified)
                #expect(!title.contains(where: wrong.contains), "\(name) in \(locale): '\(title)'")
            }
        }
    }

    @Test func noLocaleCopiesTheEnglish() {
        for locale in BuiltinTranslations.locales where !locale.hasPrefix("en") {
            let same = BuiltinTranslations.english.filter { BuiltinTranslations.buttons[$0.key]?[locale] == $0.value }
            #expect(same.count <= 2, "\(locale) repeats the English for \(same.keys.sorted())")
        }
    }

    /// "Much longer": more than twice the English width and wider than 18 columns, or wider than 24 at all
    /// (a CJK character counts as two columns, like two Latin letters on screen). A banner's buttons show
    /// one title per row, about 30 Latin characters wide on the narrowest iPhone.
    @Test func noTitleIsMuchLongerThanItsEnglish() {
        for (name, text) in Self.texts {
            let english = Self.width(text.resolved(for: "en"))
            for (locale, title) in text.translations {
                let width = Self.width(title)
                #expect(
                    !(width > 2 * english && width > 18) && width <= 24,
                    "\(name) in \(locale): '\(title)' is \(width) columns, the English \(english)")
            }
        }
        #expect(Self.width("ダウンロード") == 12 && Self.width("ที่") == 1 && Self.width("Télécharger") == 11)
    }

    /// Columns a title takes: a character is one, or two when it is East Asian wide (CJK, kana, Hangul).
    static func width(_ text: String) -> Int {
        text.reduce(0) { total, character in
            let wide = character.unicodeScalars.contains { scalar in
                [
                    0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
                    0x20000...0x3FFFD,
                ]
                .contains { $0.contains(scalar.value) }
            }
            return total + (wide ? 2 : 1)
        }
    }

    /// The Unicode ranges a locale's letters come from.
    static func script(of locale: String) -> [ClosedRange<UInt32>] {
        let latin: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF]
        switch LocaleIdentifier(locale)?.language {
        case "ar": return [0x0600...0x06FF]
        case "he": return [0x0590...0x05FF]
        case "el": return [0x0370...0x03FF, 0x1F00...0x1FFF]
        case "ru", "uk": return [0x0400...0x04FF]
        case "th": return [0x0E00...0x0E7F]
        case "hi": return [0x0900...0x097F]
        case "ko": return [0xAC00...0xD7A3, 0x1100...0x11FF]
        case "ja": return [0x3040...0x30FF, 0x4E00...0x9FFF]
        case "zh": return [0x4E00...0x9FFF]
        default: return latin
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}
