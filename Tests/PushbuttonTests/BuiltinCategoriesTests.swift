import Testing

@testable import Pushbutton

@Suite struct BuiltinCategoriesTests {
    @Test func shipsAtLeastThirtySevenCategoriesInPushbuttonsNamespace() {
        let all = BuiltinCategories.all()
        #expect(all.count >= 37)
        #expect(Set(all.map(\.identifier)).count == all.count)
        #expect(all.allSatisfy { $0.identifier.hasPrefix("pushbutton.") })
        #expect(all.flatMap(\.actions).allSatisfy { $0.identifier.hasPrefix("pushbutton.") })
        #expect(BuiltinCategories.identifiers == all.map(\.identifier))
    }

    @Test func coversTheFamiliarSets() {
        for name in [
            "yes_no", "yes_no_background", "accept_decline", "accept_decline_background", "shop_now", "buy_now_share",
            "share", "download_share", "follow_save", "unfollow", "opt_in_remind", "opt_out_share", "remind_share",
            "like_dislike", "more_less_like", "happy_sad", "thumbs_up_down", "add_calendar_remind", "book_now",
            "tell_me_more", "rate_now_remind", "search", "reply",
        ] {
            #expect(BuiltinCategories.category("pushbutton." + name) != nil, "\(name)")
        }
        #expect(BuiltinCategories.category("yes_no") == nil)
        #expect(BuiltinCategories.category("pushbutton.nope") == nil)
    }

    @Test func everyTitleIsTranslatedIntoSixLanguages() {
        for action in BuiltinCategories.all().flatMap(\.actions) {
            for locale in ["en", "fr", "de", "es", "ja", "zh-Hans"] {
                #expect(action.title.translations[locale]?.isEmpty == false, "\(action.identifier) in \(locale)")
            }
        }
        let yes = BuiltinCategories.category("pushbutton.yes_no")!.actions[0]
        #expect(yes.title.resolved(for: "ja") == "はい")
        #expect(yes.title.resolved(for: "fr") == "Oui")
    }

    @Test func foregroundAndBackgroundVariantsDiffer() {
        let foreground = BuiltinCategories.category("pushbutton.yes_no")!
        let background = BuiltinCategories.category("pushbutton.yes_no_background")!
        #expect(foreground.actions[0].options.contains(.foreground))
        #expect(!background.actions[0].options.contains(.foreground))
    }

    @Test func backgroundButtonsRequireUnlockByDefaultAndTheAppCanTurnItOff() {
        let guarded = BuiltinCategories.all().flatMap(\.actions)
        #expect(guarded.filter(\.runsInBackground).allSatisfy { $0.options.contains(.authenticationRequired) })
        #expect(guarded.filter { !$0.runsInBackground }.allSatisfy { !$0.options.contains(.authenticationRequired) })
        let open = BuiltinCategories.all(backgroundActionsRequireAuthentication: false).flatMap(\.actions)
        #expect(open.allSatisfy { !$0.options.contains(.authenticationRequired) })
    }

    @Test func replyIsATextInputAndDeleteIsDestructive() throws {
        let reply = try #require(BuiltinCategories.category("pushbutton.reply")?.actions.first)
        #expect(reply.textInput?.buttonTitle.resolved(for: "es") == "Enviar")
        let delete = try #require(BuiltinCategories.category("pushbutton.archive_delete")?.actions.last)
        #expect(delete.options.contains(.destructive))
        let icons = BuiltinCategories.category("pushbutton.thumbs_up_down")!.actions.map(\.icon)
        #expect(icons == [.system("hand.thumbsup"), .system("hand.thumbsdown")])
    }

    @Test func aManifestUsingEveryBuiltinLintsWithoutWarnings() {
        let manifest = Manifest(builtins: BuiltinCategories.identifiers)
        let result = Manifest.parse(manifest.manifestJSON)
        #expect(result.diagnostics.filter { $0.severity >= .warning }.isEmpty, "\(result.diagnostics)")
        #expect(manifest.categorySet().count == BuiltinCategories.identifiers.count)
    }
}
