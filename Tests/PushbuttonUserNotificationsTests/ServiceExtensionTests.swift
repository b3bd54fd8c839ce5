import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

@Suite(.timeLimit(.minutes(5))) struct ServiceExtensionTests {
    static func request(_ buttons: [DynamicButton], identifier: String = "push-1") -> UNNotificationRequest {
        var payload = Payload.interactive(category: "", body: "Vote?")
        payload.aps.mutableContent = true
        payload.setDynamicButtons(buttons)
        let userInfo = (try? UserNotificationsMapping.propertyList(payload.jsonValue.objectValue ?? [:])) ?? [:]
        let content = UNNotificationContent.standIn(
            body: "Vote?", categoryIdentifier: payload.aps.category ?? "", userInfo: userInfo)
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    static let buttons = [DynamicButton("yes", title: "Yes"), DynamicButton("no", title: "No", options: .destructive)]

    /// Runs the extension's `didReceive` and waits for the content handler.
    static func receive(_ service: PushbuttonNotificationService, _ request: UNNotificationRequest) async
        -> UNNotificationContent
    {
        await withCheckedContinuation { continuation in
            service.didReceive(request) { continuation.resume(returning: $0) }
        }
    }

    @Test func theDynamicCategoryIsRegisteredBeforeTheContentIsHandedBack() async throws {
        let system = UNUserNotificationCenter()
        let app = UNNotificationCategory(
            identifier: "message", actions: [UNNotificationAction(identifier: "like", title: "Like")],
            intentIdentifiers: [])
        system.setNotificationCategories([app])
        let content = await Self.receive(PushbuttonNotificationService(center: system), Self.request(Self.buttons))
        let identifier = DynamicCategories.identifier(for: Self.buttons)
        #expect(content.categoryIdentifier == identifier)
        #expect(content.body == "Vote?")
        let registered = system.standInCategories
        #expect(Set(registered.map(\.identifier)) == ["message", identifier])
        #expect(registered.contains { $0 === app })  // the app's category passed through untouched
        let dynamic = try #require(registered.first { $0.identifier == identifier })
        #expect(dynamic.actions.map(\.title) == ["Yes", "No"] && dynamic.actions[1].options == [.destructive])
    }

    @Test func theCapOfThirtyTwoDynamicCategoriesHoldsAndOtherCategoriesStay() async {
        let system = UNUserNotificationCenter()
        let service = PushbuttonNotificationService(center: system)
        system.setNotificationCategories([
            UNNotificationCategory(identifier: "message", actions: [], intentIdentifiers: [])
        ])
        for number in 0..<(DynamicCategories.maximumRegistered + 5) {
            _ = await Self.receive(service, Self.request([DynamicButton("b\(number)", title: "B\(number)")]))
        }
        let identifiers = system.standInCategories.map(\.identifier)
        #expect(identifiers.filter(DynamicCategories.isDynamic).count == DynamicCategories.maximumRegistered)
        #expect(identifiers.contains("message"))
        let newest = DynamicCategories.identifier(for: [
            DynamicButton(
                "b\(DynamicCategories.maximumRegistered + 4)", title: "B\(DynamicCategories.maximumRegistered + 4)")
        ])
        #expect(identifiers.contains(newest))
    }

    @Test func aPayloadWithoutDynamicButtonsIsHandedBackUnchangedAtOnce() async {
        let system = UNUserNotificationCenter()
        system.standInHoldCategoryReads()  // would block a registration
        let content = UNNotificationContent.standIn(
            body: "Hi", categoryIdentifier: "message", userInfo: ["aps": ["alert": "Hi", "category": "message"]])
        let request = UNNotificationRequest(identifier: "p", content: content, trigger: nil)
        let delivered = await Self.receive(PushbuttonNotificationService(center: system), request)
        #expect(delivered === content)
        #expect(system.standInSetCategoriesCalls == 0)
    }

    /// The system allows the extension about 30 seconds; a system that does not answer in the budget must not cost
    /// the notification.
    @Test func theContentIsHandedBackWhenTheBudgetPassesAndOnlyOnce() async {
        let system = UNUserNotificationCenter()
        system.standInHoldCategoryReads()
        let clock = ManualClock()
        let service = PushbuttonNotificationService(center: system, budget: .seconds(20), clock: clock)
        let calls = Locked(0)
        let content = await withCheckedContinuation { continuation in
            service.didReceive(Self.request(Self.buttons)) { content in
                calls.withLock { $0 += 1 }
                continuation.resume(returning: content)
            }
            Task {
                await clock.waitForSleepers()
                clock.advance(by: .seconds(19))
                #expect(calls.withLock { $0 } == 0)
                clock.advance(by: .seconds(1))
            }
        }
        #expect(content.categoryIdentifier == DynamicCategories.identifier(for: Self.buttons))
        system.standInReleaseCategoryReads()
        service.serviceExtensionTimeWillExpire()
        #expect(calls.withLock { $0 } == 1)
        // The released read lets the cut-off work end, which would hand the content over again if it could.
        await service.workEnded()
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func serviceExtensionTimeWillExpireHandsTheContentBackAtOnce() async {
        let system = UNUserNotificationCenter()
        system.standInHoldCategoryReads()
        let service = PushbuttonNotificationService(center: system, budget: .seconds(20), clock: ManualClock())
        let content = await withCheckedContinuation { continuation in
            service.didReceive(Self.request(Self.buttons)) { continuation.resume(returning: $0) }
            service.serviceExtensionTimeWillExpire()
        }
        #expect(content.body == "Vote?")
        system.standInReleaseCategoryReads()
    }
}

/// The extension reads the categories back after writing them, before it hands the content over.
@Suite struct ServiceExtensionReadBackTests {
    @Test func theCategoriesAreReadBackAfterTheWriteBeforeTheContentIsHandedBack() async {
        let system = UNUserNotificationCenter()
        // The budget on a clock that never moves: on a loaded machine a wall-clock budget could hand the content
        // back early and make the test about the machine's speed (that path has tests of its own).
        let service = PushbuttonNotificationService(center: system, budget: .seconds(20), clock: ManualClock())
        let callsAtDelivery = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            service.didReceive(ServiceExtensionTests.request(ServiceExtensionTests.buttons)) { _ in
                continuation.resume(returning: system.standInCategoryCalls)
            }
        }
        #expect(callsAtDelivery.suffix(2) == ["set", "get"])
    }
}

/// Titles are registered in the app's language: an English-only app shows English buttons to a French user.
@Suite struct AppLanguageBridgeTests {
    @Test func anEnglishOnlyAppRegistersEnglishTitlesForAFrenchUser() async {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(
            center: system, locale: AppLanguage.choose(from: ["en"], preferences: ["fr-FR"]))
        let manifest = Manifest.parse(
            #"""
            {"version": 1, "defaultLocale": "en", "locales": ["en", "fr"], "categories": [
              {"identifier": "message", "actions": [
                {"identifier": "like", "title": {"key": "like", "values": {"en": "Like", "fr": "J’aime"}}}]}]}
            """#
        ).manifest!
        await CategoryRegistrar(center: center).register(manifest)
        #expect(system.standInCategories.first?.actions.map(\.title) == ["Like"])
    }
}
