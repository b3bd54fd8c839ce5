import Testing

@testable import Pushbutton

@Suite struct ModelTests {
    @Test func optionRawValuesMatchApplesHeaders() {
        #expect(ActionOptions.authenticationRequired.rawValue == 1 << 0)
        #expect(ActionOptions.destructive.rawValue == 1 << 1)
        #expect(ActionOptions.foreground.rawValue == 1 << 2)
        #expect(CategoryOptions.customDismissAction.rawValue == 1 << 0)
        #expect(CategoryOptions.allowInCarPlay.rawValue == 1 << 1)
        #expect(CategoryOptions.hiddenPreviewsShowTitle.rawValue == 1 << 2)
        #expect(CategoryOptions.hiddenPreviewsShowSubtitle.rawValue == 1 << 3)
        #expect(CategoryOptions.allowAnnouncement.rawValue == 1 << 4)
    }

    @Test func localizedTextFallsBackFromRegionToLanguageToDefaultToEnglish() {
        let text = LocalizedText.localized(key: "k", values: ["en": "Like", "fr": "J’aime", "de": "Gefällt mir"])
        #expect(text.resolved(for: "fr") == "J’aime")
        #expect(text.resolved(for: "fr-CA") == "J’aime")
        #expect(text.resolved(for: "fr_CA") == "J’aime")
        #expect(text.resolved(for: "it", fallbackLocale: "de") == "Gefällt mir")
        #expect(text.resolved(for: "it") == "Like")
        #expect(LocalizedText.localized(key: "k", values: ["zh-Hans": "赞"]).resolved(for: "zh-CN") == "赞")
        #expect(LocalizedText.localized(key: "only.key", values: [:]).resolved(for: "fr") == "only.key")
        #expect(LocalizedText.literal("Hi").resolved(for: "ja") == "Hi")
    }

    @Test func aTextInputActionCarriesItsFieldAndDefaultsTheSendTitle() {
        let action = Action.textInput("reply", title: "Reply", placeholder: "Message")
        #expect(action.textInput?.placeholder == "Message")
        #expect(action.textInput?.buttonTitle.resolved(for: "de") == "Senden")
        #expect(action.runsInBackground)
        #expect(!Action("open", title: "Open", options: .foreground).runsInBackground)
    }

    @Test func systemAndReservedIdentifiersAreRecognised() {
        #expect(SystemIdentifiers.isSystemIdentifier("com.apple.UNNotificationDefaultActionIdentifier"))
        #expect(SystemIdentifiers.isSystemIdentifier("com.apple.UNNotificationDismissActionIdentifier"))
        #expect(!SystemIdentifiers.isSystemIdentifier("like"))
        #expect(SystemIdentifiers.isReserved("PushButton.Mine"))
        #expect(!SystemIdentifiers.isReserved("mypushbutton.x"))
    }

    @Test func jsonPathsReadLikeCode() {
        let path = JSONPath.root.appending("categories").appending(2).appending("actions").appending(1)
            .appending("title")
        #expect(path.description == "categories[2].actions[1].title")
        #expect(JSONPath.root.appending("a b").appending("c\"d").description == #"["a b"]["c\"d"]"#)
        #expect(JSONPath.root.description == "(root)")
        #expect(JSONPath.root.appending("values").appending("zh-Hans").description == "values.zh-Hans")
    }
}

@Suite struct SuggestionTests {
    @Test func suggestsTheClosestNameForTyposAndTranspositions() {
        #expect(Suggestion.closest(to: "optoins", among: ["options", "actions"]) == "options")
        #expect(Suggestion.closest(to: "lnit", among: ["lint", "builtins"]) == "lint")
        #expect(Suggestion.closest(to: "FOREGROUND", among: ["foreground"]) == "foreground")
        #expect(Suggestion.closest(to: "zzz", among: ["options"]) == nil)
        #expect(Suggestion.editDistance(Array("ab".unicodeScalars), Array("ba".unicodeScalars)) == 1)
        #expect(Suggestion.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }
}
