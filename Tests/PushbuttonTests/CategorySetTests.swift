import Testing

@testable import Pushbutton

@Suite struct CategorySetTests {
    let like = Category("message", actions: [Action("like", title: "Like")])
    let delete = Category("message", actions: [Action("delete", title: "Delete", options: .destructive)])
    let other = Category("sdk_promo", actions: [Action("shop", title: "Shop", options: .foreground)])

    @Test func mergingAddsByIdentifierAndNeverDropsAnotherSourcesCategories() {
        var set = CategorySet([other], from: .library("AcmeSDK"))
        let diagnostics = set.merge([like], from: .manifest("manifest.json"))
        #expect(diagnostics.isEmpty)
        #expect(set.identifiers == ["message", "sdk_promo"])
        #expect(set.source(of: "sdk_promo") == .library("AcmeSDK"))
    }

    @Test func higherPrecedenceReplacesAndTheDiagnosticNamesBothSources() throws {
        var set = CategorySet([like], from: .library("AcmeSDK"))
        let diagnostics = set.merge([delete], from: .app)
        #expect(set["message"] == delete)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.code == .categoryCollision)
        #expect(diagnostic.message.contains("the app") && diagnostic.message.contains("AcmeSDK"))
    }

    @Test func lowerOrEqualPrecedenceKeepsWhatIsThere() {
        var set = CategorySet([like], from: .manifest())
        #expect(set.merge([delete], from: .builtins).count == 1)
        #expect(set.merge([delete], from: .manifest("other.json")).count == 1)
        #expect(set["message"] == like)
    }

    @Test func identicalDefinitionsMergeSilently() {
        var set = CategorySet([like], from: .library("A"))
        #expect(set.merge([like], from: .library("B")).isEmpty)
        #expect(set.count == 1)
    }

    @Test func theResultDoesNotDependOnTheOrderOfMerges() {
        var first = CategorySet()
        first.merge([like, other], from: .library("A"))
        first.merge([delete], from: .app)
        var second = CategorySet()
        second.merge([delete], from: .app)
        second.merge([other, like], from: .library("A"))
        #expect(first.categories == second.categories)
        #expect(first.map(\.identifier) == ["message", "sdk_promo"])
    }

    @Test func duplicatesWithinOneSourceAreReportedWithTheirIndex() throws {
        var set = CategorySet()
        let diagnostics = set.merge([like, delete], from: .app)
        #expect(try #require(diagnostics.first).path == JSONPath.root.appending(1))
        #expect(set["message"] == like)
    }

    @Test func setsMergeIntoSetsKeepingSources() {
        var set = CategorySet([like], from: .builtins)
        set.merge(CategorySet([delete, other], from: .app))
        #expect(set["message"] == delete)
        #expect(set.source(of: "sdk_promo") == .app)
        #expect(set.remove("sdk_promo") == other)
        #expect(set.count == 1)
    }
}
