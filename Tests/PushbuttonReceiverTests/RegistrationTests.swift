import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
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

    /// The app, a second SDK's registrar and payloads' dynamic categories register at once: every read-merge-write
    /// must see the previous one's result, or the later write drops the earlier categories.
    @Test func concurrentRegistrationsNeverDropEachOthersCategories() async {
        let center = SimulatedNotificationCenter()
        let shared = CategoryRegistrar(center: center)
        let count = 40
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<count {
                group.addTask {
                    let category = Pushbutton.Category("sdk_\(number)", actions: [Action("ok", title: "OK")])
                    // Half through one registrar, half through registrars of their own on the same center.
                    let registrar = number.isMultiple(of: 2) ? shared : CategoryRegistrar(center: center)
                    await registrar.register(CategorySet([category], from: .app))
                }
                group.addTask {
                    var payload = Payload.interactive(category: "", body: "x")
                    payload.setDynamicButtons([DynamicButton("b\(number)", title: "B\(number)")])
                    await shared.prepare(for: payload)
                }
            }
        }
        let identifiers = await center.registeredCategoryIdentifiers
        #expect(identifiers.filter { $0.hasPrefix("sdk_") }.count == count)
        #expect(identifiers.filter(DynamicCategories.isDynamic).count == DynamicCategories.maximumRegistered)
        #expect(await center.setCategoriesCallCount == count * 2)
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
