import Testing

@testable import Pushbutton

@Suite struct LegacyConversionTests {
    let like = LegacyAction("Like", title: "Like")
    let delete = LegacyAction("Delete", title: "Delete", activationMode: .foreground, isDestructive: true)

    @Test func mapsEveryPropertyToTheModernOptions() {
        let secure = LegacyAction("Pay", title: "Pay", activationMode: .foreground, isAuthenticationRequired: true)
        let (category, diagnostics) = LegacyConversion.convert(
            LegacyCategory("c", defaultActions: [like, delete, secure]))
        #expect(diagnostics.isEmpty)
        #expect(
            category.actions.map(\.options) == [
                [], [.foreground, .destructive], [.foreground, .authenticationRequired],
            ])
        #expect(category.actions.map(\.identifier) == ["Like", "Delete", "Pay"])
    }

    @Test func theDefaultContextWinsAndDroppingTheMinimalListIsAWarning() throws {
        let (category, diagnostics) = LegacyConversion.convert(
            LegacyCategory("c", defaultActions: [like, delete], minimalActions: [delete]))
        #expect(category.actions.map(\.identifier) == ["Like", "Delete"])
        let warning = try #require(diagnostics.first)
        #expect(warning.code == .legacyBothContexts && warning.severity == .warning)
        #expect(warning.path == JSONPath.root.appending("minimalActions"))
    }

    @Test func theMinimalContextIsUsedWhenTheDefaultOneIsEmpty() {
        let (category, diagnostics) = LegacyConversion.convert(LegacyCategory("c", minimalActions: [delete]))
        #expect(category.actions.map(\.identifier) == ["Delete"])
        #expect(diagnostics.isEmpty)
    }

    @Test func aTextInputWithoutAButtonTitleGetsTheLocalizedSendAndAWarning() throws {
        let comment = LegacyAction("Comment", title: "Comment", behavior: .textInput)
        let (category, diagnostics) = LegacyConversion.convert(LegacyCategory("c", defaultActions: [comment]))
        #expect(category.actions[0].textInput?.buttonTitle == TextInput.defaultButtonTitle)
        #expect(try #require(diagnostics.first).code == .legacyTextInputTitle)
    }

    @Test func aTextInputKeepsItsButtonTitleParameter() {
        let comment = LegacyAction(
            "Comment", title: "Comment", behavior: .textInput,
            parameters: [LegacyAction.textInputButtonTitleKey: "Post"])
        let (category, diagnostics) = LegacyConversion.convert(LegacyCategory("c", defaultActions: [comment]))
        #expect(category.actions[0].textInput?.buttonTitle == "Post")
        #expect(diagnostics.isEmpty)
    }

    @Test func listsLongerThanTheContextShowedGetANote() {
        let many = (0..<5).map { LegacyAction("a\($0)", title: "A") }
        let (_, diagnostics) = LegacyConversion.convert(
            LegacyCategory("c", defaultActions: many, minimalActions: Array(many.prefix(3))))
        #expect(diagnostics.filter { $0.code == .legacyContextLimit }.count == 2)
    }

    @Test func aManifestMayHoldLegacyCategoriesThatRegisterConverted() {
        let manifest = Manifest(legacyCategories: [LegacyCategory("old", defaultActions: [like])])
        #expect(manifest.categorySet()["old"]?.actions.map(\.identifier) == ["Like"])
    }
}
