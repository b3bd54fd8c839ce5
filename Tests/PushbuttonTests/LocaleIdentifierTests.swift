import Testing

@testable import Pushbutton

/// Parsing language identifiers, the fallbacks iOS uses, and `LocalizedText` resolving along them.
@Suite struct LocaleIdentifierTests {
    @Test func parsesTheSpellingsAppsAndDevicesUse() {
        #expect(LocaleIdentifier("pt_br")?.description == "pt-BR")
        #expect(LocaleIdentifier("ZH-hant-hk")?.description == "zh-Hant-HK")
        #expect(LocaleIdentifier("es-419")?.region == "419")
        #expect(LocaleIdentifier("en-US-u-ca-gregory")?.description == "en-US")
        #expect(LocaleIdentifier("en_GB@calendar=gregorian")?.description == "en-GB")
        #expect(LocaleIdentifier("ca-ES-valencia")?.description == "ca-ES")
        #expect(LocaleIdentifier("iw")?.description == "he")
        #expect(LocaleIdentifier("in-ID")?.description == "id-ID")
        #expect(LocaleIdentifier("no")?.description == "nb")
        #expect(LocaleIdentifier("tl")?.description == "fil")
        for invalid in ["", "Base", "english", "e", "en-", "en--US", "en-US-!", "1en", "en-Latn-Latn"] {
            #expect(LocaleIdentifier(invalid) == nil, "\(invalid)")
        }
    }

    @Test func knowsACanonicalSpellingWithoutParsing() {
        for canonical in ["en", "pt-BR", "zh-Hant-HK", "zh-Hant", "es-419", "fil", "nb"] {
            #expect(LocaleIdentifier.isCanonical(canonical), "\(canonical)")
            #expect(LocaleIdentifier(canonical)?.description == canonical)
        }
        for other in ["pt_BR", "zh-hant", "EN", "iw", "no", "en-us", "", "en-", "ca-ES-valencia", "en-GB-GB", "e"] {
            #expect(!LocaleIdentifier.isCanonical(other), "\(other)")
            #expect(LocaleIdentifier(other)?.description != other)
        }
    }

    @Test func chineseScriptIsImpliedByRegion() {
        #expect(LocaleIdentifier("zh-TW")?.effectiveScript == "Hant")
        #expect(LocaleIdentifier("zh-HK")?.effectiveScript == "Hant")
        #expect(LocaleIdentifier("zh-MO")?.effectiveScript == "Hant")
        #expect(LocaleIdentifier("zh-CN")?.effectiveScript == "Hans")
        #expect(LocaleIdentifier("zh")?.effectiveScript == "Hans")
        #expect(LocaleIdentifier("zh-Hans-HK")?.effectiveScript == "Hans")
        #expect(LocaleIdentifier("fr-CA")?.effectiveScript == nil)
    }

    @Test func fallsBackThroughRegionalParentsAsIOSDoes() {
        func fallbacks(_ locale: String) -> [String] { LocaleIdentifier(locale)?.fallbacks ?? [] }
        #expect(fallbacks("pt-PT") == ["pt-PT", "pt", "pt-BR"])
        #expect(fallbacks("pt-AO") == ["pt-AO", "pt-PT", "pt", "pt-BR"])
        #expect(fallbacks("pt") == ["pt", "pt-BR"])
        #expect(fallbacks("es-MX") == ["es-MX", "es-419", "es", "es-ES"])
        #expect(fallbacks("es-US") == ["es-US", "es-419", "es", "es-ES"])
        #expect(fallbacks("es-ES") == ["es-ES", "es"])
        #expect(fallbacks("en-AU") == ["en-AU", "en-GB", "en", "en-US"])
        #expect(fallbacks("en-IN") == ["en-IN", "en-GB", "en", "en-US"])
        #expect(fallbacks("en-GB") == ["en-GB", "en", "en-US"])
        #expect(fallbacks("en-CA") == ["en-CA", "en", "en-US"])
        #expect(fallbacks("fr_CA") == ["fr-CA", "fr", "fr-FR"])
        #expect(fallbacks("zh-HK") == ["zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"])
        #expect(fallbacks("zh-TW") == ["zh-Hant-TW", "zh-TW", "zh-Hant"])
        #expect(
            fallbacks("zh-MO") == ["zh-Hant-MO", "zh-MO", "zh-Hant-HK", "zh-HK", "zh-Hant", "zh-Hant-TW", "zh-TW"])
        #expect(fallbacks("zh-CN") == ["zh-Hans-CN", "zh-CN", "zh-Hans", "zh"])
        #expect(fallbacks("zh-Hans-HK") == ["zh-Hans-HK", "zh-Hans", "zh", "zh-Hans-CN", "zh-CN"])
        #expect(fallbacks("nb-NO") == ["nb-NO", "no-NO", "nb", "no"])
        #expect(fallbacks("nn") == ["nn", "nb", "no", "nb-NO", "no-NO"])
        #expect(fallbacks("he-IL") == ["he-IL", "iw-IL", "he", "iw"])
        #expect(fallbacks("ja-Jpan-JP") == ["ja-Jpan-JP", "ja-JP", "ja-Jpan", "ja"])
    }

    @Test func aScriptThatIsNotTheLanguagesOwnNeverFallsBackToTheBareLanguage() {
        let traditional = LocaleIdentifier("zh-Hant")?.fallbacks ?? []
        #expect(!traditional.contains("zh") && !traditional.contains("zh-Hans"))
        #expect(LocaleIdentifier("sr-Latn")?.fallbacks == ["sr-Latn"])
        #expect(LocaleIdentifier("sr")?.fallbacks == ["sr-Cyrl", "sr"])
    }

    @Test func rightToLeftFollowsTheScript() {
        for locale in ["ar", "ar-SA", "he", "iw", "fa-IR", "ur", "az-Arab"] {
            #expect(LocaleIdentifier(locale)?.isRightToLeft == true, "\(locale)")
        }
        for locale in ["en", "ja", "zh-Hant", "az", "ar-Latn", "hi"] {
            #expect(LocaleIdentifier(locale)?.isRightToLeft == false, "\(locale)")
        }
    }

    @Test func localizedTextResolvesAlongTheFallbacks() {
        let like = LocalizedText.localized(key: "like", values: ["en": "Like", "pt": "Curtir", "pt-PT": "Gosto"])
        #expect(like.resolved(for: "pt-BR") == "Curtir")
        #expect(like.resolved(for: "pt-PT") == "Gosto")
        #expect(like.resolved(for: "pt-AO") == "Gosto")
        let add = LocalizedText.localized(key: "add", values: ["en": "Add", "es": "Añadir", "es-419": "Agregar"])
        #expect(add.resolved(for: "es-MX") == "Agregar" && add.resolved(for: "es-AR") == "Agregar")
        #expect(add.resolved(for: "es-ES") == "Añadir" && add.resolved(for: "es") == "Añadir")
        let colour = LocalizedText.localized(key: "c", values: ["en": "Color", "en-GB": "Colour"])
        #expect(colour.resolved(for: "en-AU") == "Colour" && colour.resolved(for: "en-IN") == "Colour")
        #expect(colour.resolved(for: "en-US") == "Color" && colour.resolved(for: "en-CA") == "Color")
        let chinese = LocalizedText.localized(key: "k", values: ["en": "Like", "zh-Hans": "赞", "zh-Hant": "讚"])
        #expect(chinese.resolved(for: "zh-HK") == "讚" && chinese.resolved(for: "zh-TW") == "讚")
        #expect(chinese.resolved(for: "zh-SG") == "赞" && chinese.resolved(for: "zh") == "赞")
        let simplifiedOnly = LocalizedText.localized(key: "k", values: ["en": "Like", "zh-Hans": "赞"])
        #expect(simplifiedOnly.resolved(for: "zh-TW") == "Like")
        #expect(LocalizedText.localized(key: "k", values: ["zh-TW": "讚", "en": "Like"]).resolved(for: "zh-HK") == "讚")
    }

    @Test func localizedTextFindsLegacyAndNonCanonicalKeys() {
        #expect(LocalizedText.localized(key: "k", values: ["no": "Lik", "en": "Like"]).resolved(for: "nb") == "Lik")
        #expect(LocalizedText.localized(key: "k", values: ["nb": "Lik", "en": "Like"]).resolved(for: "no") == "Lik")
        #expect(LocalizedText.localized(key: "k", values: ["nb": "Lik", "en": "Like"]).resolved(for: "nn-NO") == "Lik")
        #expect(
            LocalizedText.localized(key: "k", values: ["pt_BR": "Curtir", "en": "Like"]).resolved(for: "pt") == "Curtir"
        )
        #expect(
            LocalizedText.localized(key: "k", values: ["zh-hant": "讚", "en": "Like"]).resolved(for: "zh-TW") == "讚")
        #expect(
            LocalizedText.localized(key: "k", values: ["pt-BR": "Curtir", "en": "Like"]).resolved(for: "pt-PT")
                == "Curtir")
    }

    @Test func theFallbackLocaleFallsBackToo() {
        let text = LocalizedText.localized(key: "k", values: ["en": "Like", "pt": "Curtir", "de": "Gefällt mir"])
        #expect(text.resolved(for: "it", fallbackLocale: "pt-PT") == "Curtir")
        #expect(text.resolved(for: "it", fallbackLocale: "de-AT") == "Gefällt mir")
        #expect(text.resolved(for: "not a locale") == "Like")
        #expect(
            LocalizedText.localized(key: "k", values: ["sv": "Gilla", "fr": "J’aime"]).resolved(for: "it") == "J’aime")
    }
}
