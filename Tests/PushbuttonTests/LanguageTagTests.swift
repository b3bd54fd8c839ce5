import Pushbutton
import Testing

@Suite struct LanguageTagTests {
    @Test(arguments: [
        "en", "fr", "pt-BR", "zh-Hans", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1996", "en-US-x-test", "x-private",
        "zh-yue-HK", "en-a-bbb-x-a",
    ])
    func wellFormedTagsAreAccepted(_ tag: String) {
        #expect(LanguageTag.isValid(tag))
    }

    @Test(arguments: [
        "", "../../etc", "en/../../x", "..", "en_US", "english", "e", "en-", "-en", "en--US", "en US", "en\n",
        "fr.lproj", "en-a", "en-a-bb-a-cc", "ünï", "en-US-", "x",
    ])
    func anythingElseIsRefused(_ tag: String) {
        #expect(!LanguageTag.isValid(tag))
    }
}
