import PushbuttonReceiver
import Testing

/// Button titles follow the app's language: the user's first preferred language the app is localized into.
@Suite struct AppLanguageTests {
    @Test func anEnglishOnlyAppShowsEnglishToAFrenchUser() {
        #expect(AppLanguage.choose(from: ["en"], preferences: ["fr-FR", "de-DE"]) == "en")
    }

    @Test func theFirstPreferredLanguageTheAppHasWins() {
        #expect(AppLanguage.choose(from: ["en", "fr", "de"], preferences: ["it-IT", "fr-CA", "en-US"]) == "fr")
        #expect(AppLanguage.choose(from: ["en-GB", "en"], preferences: ["en-GB"]) == "en-GB")
        #expect(AppLanguage.choose(from: ["en", "pt-BR"], preferences: ["pt_BR"]) == "pt-BR")
    }

    @Test func scriptsAreMatchedBeforeLanguages() {
        #expect(AppLanguage.choose(from: ["zh-Hans", "zh-Hant"], preferences: ["zh-Hant-TW"]) == "zh-Hant")
    }

    @Test func withoutAMatchTheDevelopmentLanguageThenTheFirstIsUsedAndBaseNever() {
        #expect(AppLanguage.choose(from: ["Base", "de", "en"], preferences: ["ja-JP"], development: "en") == "en")
        #expect(AppLanguage.choose(from: ["Base", "de"], preferences: ["ja-JP"]) == "de")
        #expect(AppLanguage.choose(from: ["Base"], preferences: ["ja-JP"]) == nil)
    }
}
