import Pushbutton
import PushbuttonReceiver
import Testing

@Suite struct RegistrationTests {
    @Test func anotherLibrarysCategoriesSurviveRegistration() async {
        let center = SimulatedNotificationCenter()
        let sdk = Pushbutton.Category("acme_promo", actions: [Action("shop", title: "Shop", options: .foreground)])
        await center.setNotificationCategories([sdk])
        let report = await CategoryRegistrar(center: center).register(Fixtures.manifest)
        #expect(await center.registeredCategoryIdentifiers == ["acme_promo", "message", "pushbutton.yes_no", "quiet"])
        #expect(report.kept == ["acme_promo"])
        #expect(report.registered == ["message", "pushbutton.yes_no", "quiet"])
        #expect(await center.notificationCategories().first { $0.identifier == "acme_promo" } == sdk)
    }

    @Test func aCollisionIsSettledByPrecedenceAndReported() async throws {
        let center = SimulatedNotificationCenter()
        await center.setNotificationCategories([Pushbutton.Category("message", actions: [])])
        let report = await CategoryRegistrar(center: center).register(Fixtures.manifest)
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.code == .categoryCollision && diagnostic.message.contains("already registered"))
        #expect(await center.notificationCategories().first { $0.identifier == "message" }?.actions.count == 4)
    }

    @Test func dynamicCategoriesAreRegisteredOnDemandAndTheLeastRecentlyUsedIsEvicted() async throws {
        let center = SimulatedNotificationCenter()
        let registrar = CategoryRegistrar(center: center)
        await registrar.register(Fixtures.manifest)
        func payload(_ number: Int) -> Payload {
            var payload = Payload.interactive(category: "", body: "x")
            payload.setDynamicButtons([DynamicButton("b\(number)", title: "B\(number)")])
            return payload
        }
        #expect(await registrar.prepare(for: .interactive(category: "message", body: "x")) == nil)
        let first = try #require(await registrar.prepare(for: payload(0)))
        #expect(first.registered.count == 1)
        for number in 1..<DynamicCategories.maximumRegistered { await registrar.prepare(for: payload(number)) }
        // Using the first one again makes the second the least recently used.
        let calls = await center.setCategoriesCallCount
        #expect(try #require(await registrar.prepare(for: payload(0))).registered.isEmpty)
        #expect(await center.setCategoriesCallCount == calls)
        let overflow = try #require(await registrar.prepare(for: payload(99)))
        #expect(overflow.evicted == [DynamicCategories.identifier(for: payload(1).actions!.dynamicButtons)])
        let identifiers = await center.registeredCategoryIdentifiers
        #expect(identifiers.filter(DynamicCategories.isDynamic).count == DynamicCategories.maximumRegistered)
        #expect(identifiers.contains("message") && identifiers.contains("pushbutton.yes_no"))
    }
}
