import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

@Suite struct MappingTests {
    @Test func everyActionOptionMapsToApplesOption() {
        let cases: [(ActionOptions, UNNotificationActionOptions)] = [
            (.foreground, .foreground), (.destructive, .destructive),
            (.authenticationRequired, .authenticationRequired),
            (
                [.foreground, .destructive, .authenticationRequired],
                [.foreground, .destructive, .authenticationRequired]
            ), ([], []),
        ]
        for (model, apple) in cases { #expect(UserNotificationsMapping.options(model) == apple) }
    }

    @Test func everyCategoryOptionMapsToApplesOption() {
        for (model, apple) in [
            (CategoryOptions.customDismissAction, UNNotificationCategoryOptions.customDismissAction),
            (.allowInCarPlay, .allowInCarPlay), (.hiddenPreviewsShowTitle, .hiddenPreviewsShowTitle),
            (.hiddenPreviewsShowSubtitle, .hiddenPreviewsShowSubtitle), (.allowAnnouncement, .allowAnnouncement),
        ] {
            #expect(UserNotificationsMapping.options(model) == apple)
            #expect(UserNotificationsMapping.options(model).rawValue == model.rawValue)
        }
        #expect(
            UserNotificationsMapping.authorizationOptions([.alert, .sound, .provisional]) == [
                .alert, .sound, .provisional,
            ])
    }

    @Test func actionsCarryTitlesIconsAndTextFields() throws {
        let reply = Action.textInput(
            "reply", title: .localized(key: "r", values: ["en": "Reply", "de": "Antworten"]),
            buttonTitle: .localized(key: "s", values: ["en": "Send", "de": "Senden"]), placeholder: "…",
            icon: .system("arrowshape.turn.up.left"))
        let mapped = try #require(
            UserNotificationsMapping.action(reply, locale: "de") as? UNTextInputNotificationAction)
        #expect(mapped.identifier == "reply" && mapped.title == "Antworten")
        #expect(mapped.textInputButtonTitle == "Senden" && mapped.textInputPlaceholder == "…")
        #expect(mapped.icon?.standInSystemImageName == "arrowshape.turn.up.left")
        let like = UserNotificationsMapping.action(
            Action("like", title: "Like", icon: .template("heart-template")), locale: nil)
        #expect(!(like is UNTextInputNotificationAction) && like.icon?.standInTemplateImageName == "heart-template")
        #expect(UserNotificationsMapping.action(Action("x", title: "X"), locale: nil).icon == nil)
    }

    @Test func categoriesCarryPlaceholderSummaryIntentsAndOptions() {
        let category = Pushbutton.Category(
            "message", actions: [Action("like", title: "Like")], intentIdentifiers: ["INSendMessageIntent"],
            hiddenPreviewsBodyPlaceholder: .localized(
                key: "h", values: ["en": "New message", "fr": "Nouveau message"]),
            summaryFormat: "%u more", options: [.customDismissAction, .allowInCarPlay])
        let mapped = UserNotificationsMapping.category(category, locale: "fr")
        #expect(mapped.identifier == "message" && mapped.actions.map(\.identifier) == ["like"])
        #expect(mapped.intentIdentifiers == ["INSendMessageIntent"])
        #expect(mapped.hiddenPreviewsBodyPlaceholder == "Nouveau message" && mapped.categorySummaryFormat == "%u more")
        #expect(mapped.options == [.customDismissAction, .allowInCarPlay])
        let back = UserNotificationsMapping.category(from: mapped)
        #expect(back.identifier == "message" && back.options == category.options && back.summaryFormat == "%u more")
    }

    @Test func responsesMapWithTheirTypedText() {
        let content = UNNotificationContent.standIn(
            title: "Anna", body: "Lunch?", categoryIdentifier: "message",
            userInfo: [
                "aps": ["category": "message", "badge": 2, "content-available": 1], "flag": true, "ratio": 0.5,
                "nothing": NSNull(),
            ])
        let notification = UNNotification(
            standInRequest: UNNotificationRequest(identifier: "n1", content: content, trigger: nil), date: Date())
        let text = UNTextInputNotificationResponse(
            standInNotification: notification, actionIdentifier: "reply", userText: "Yes!")
        let mapped = UserNotificationsMapping.response(text)
        #expect(mapped.actionIdentifier == "reply" && mapped.userText == "Yes!")
        #expect(mapped.notification.identifier == "n1" && mapped.notification.categoryIdentifier == "message")
        #expect(mapped.notification.userInfo["aps"]?["badge"] == 2)
        #expect(mapped.notification.userInfo["flag"] == true && mapped.notification.userInfo["ratio"] == 0.5)
        #expect(mapped.notification.userInfo["nothing"] == .null)
        let body = UserNotificationsMapping.response(
            UNNotificationResponse(
                standInNotification: notification, actionIdentifier: UNNotificationDefaultActionIdentifier))
        #expect(body.actionIdentifier == SystemIdentifiers.defaultAction && body.userText == nil)
        #expect(UNNotificationDismissActionIdentifier == SystemIdentifiers.dismissAction)
    }

    @Test func numbersAndBooleansFromNSNumberStayDistinct() {
        #expect(UserNotificationsMapping.jsonValue(NSNumber(value: true)) == .bool(true))
        #expect(UserNotificationsMapping.jsonValue(NSNumber(value: 1)) == .integer(1))
        #expect(UserNotificationsMapping.jsonValue(NSNumber(value: 2.5)) == .double(2.5))
        #expect(UserNotificationsMapping.jsonValue(1) == .integer(1))
        #expect(UserNotificationsMapping.jsonValue(false) == .bool(false))
    }
}

/// A delegate another library installed before Pushbutton.
final class OtherLibraryDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    let received = Locked([String]())
    let answers: Bool
    init(answers: Bool) { self.answers = answers }
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        received.withLock { $0.append(response.actionIdentifier) }
        if answers { completionHandler() }
    }
}

@Suite struct BridgeTests {
    static func response(_ action: String, category: String = "message") -> UNNotificationResponse {
        let content = UNNotificationContent.standIn(
            body: "x", categoryIdentifier: category, userInfo: ["aps": ["alert": "x", "category": category]])
        return UNNotificationResponse(
            standInNotification: UNNotification(
                standInRequest: UNNotificationRequest(identifier: "n", content: content, trigger: nil), date: Date()),
            actionIdentifier: action)
    }

    @Test func registrationThroughTheBridgeKeepsAnotherLibrarysCategoryObjects() async {
        let system = UNUserNotificationCenter()
        let theirs = UNNotificationCategory(
            identifier: "acme",
            actions: [
                UNNotificationAction(
                    identifier: "buy", title: "Buy", options: [.foreground],
                    icon: UNNotificationActionIcon(systemImageName: "cart"))
            ],
            intentIdentifiers: [], options: [])
        system.setNotificationCategories([theirs])
        let center = SystemNotificationCenter(center: system, locale: "en")
        let manifest = Manifest(categories: [Pushbutton.Category("message", actions: [Action("like", title: "Like")])])
        let report = await CategoryRegistrar(center: center).register(manifest)
        #expect(report.kept == ["acme"])
        let registered = await withCheckedContinuation { continuation in
            system.getNotificationCategories { continuation.resume(returning: $0) }
        }
        #expect(Set(registered.map(\.identifier)) == ["acme", "message"])
        #expect(registered.contains { $0 === theirs })  // passed through untouched, icon and all
    }

    @Test func theDelegateForwardsToThePreviousOneAndCompletesOnceAfterBoth() async throws {
        let system = UNUserNotificationCenter()
        let other = OtherLibraryDelegate(answers: true)
        system.delegate = other
        let center = SystemNotificationCenter(center: system, locale: "en")
        await center.setNotificationCategories([
            Pushbutton.Category("message", actions: [Action("like", title: "Like")])
        ])
        let router = ResponseRouter(center: center)
        let ran = Locked([String]())
        try router.registry.register("like") { context in ran.withLock { $0.append(context.identifier) } }
        await center.setResponseHandler(router)
        let delegate = try #require(system.delegate)
        let calls = Locked(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            delegate.userNotificationCenter(system, didReceive: Self.response("like")) {
                calls.withLock { $0 += 1 }
                continuation.resume()
            }
        }
        #expect(ran.withLock { $0 } == ["like"])
        #expect(other.received.withLock { $0 } == ["like"])
        // Both participants have answered, each once; only the join's deadline could call again, and the join
        // cancelled it as it completed: nothing is left to wait for.
        #expect(calls.withLock { $0 } == 1)
        await center.setResponseHandler(nil)
        #expect(system.delegate === other)
    }

    @Test func aPreviousDelegateThatNeverAnswersCannotHoldTheSystemBack() async {
        let clock = ManualClock()
        let calls = Locked(0)
        let join = JoinedCompletion(parts: 2, deadline: .seconds(25), clock: clock) { calls.withLock { $0 += 1 } }
        join.part()
        #expect(!join.hasCompleted)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(25))
        while !join.hasCompleted { await Task.yield() }
        join.part()
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func authorizationAndLocalNotificationsGoThroughTheSystem() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        #expect(try await center.requestAuthorization(options: [.alert]))
        system.standInSetAuthorizationAnswer(false)
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
        try await center.add(
            LocalNotificationRequest(
                identifier: "r1", body: "Remind", categoryIdentifier: "message", userInfo: ["id": 3],
                delay: .seconds(90)))
        let request = try #require(system.standInPendingRequests.first)
        #expect(request.content.categoryIdentifier == "message" && request.content.userInfo["id"] as? Int == 3)
        #expect((request.trigger as? UNTimeIntervalNotificationTrigger)?.timeInterval == 90)
        await center.removePendingNotificationRequests(withIdentifiers: ["r1"])
        #expect(system.standInPendingRequests.isEmpty)
    }
}
