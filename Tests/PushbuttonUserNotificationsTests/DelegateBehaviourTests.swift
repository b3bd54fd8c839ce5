import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

/// A delegate another library (or the app) installed before Pushbutton, implementing every method.
final class SettingsAwareDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
    let settingsRequests = Locked([String?]())
    let presentation: UNNotificationPresentationOptions
    init(presentation: UNNotificationPresentationOptions = [.sound]) { self.presentation = presentation }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
        withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
    ) { completionHandler(presentation) }

    func userNotificationCenter(_ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?) {
        settingsRequests.withLock { $0.append(notification?.request.identifier) }
    }
}

enum StandIn {
    static func notification(_ identifier: String, category: String = "message", userInfo: [AnyHashable: Any] = [:])
        -> UNNotification
    {
        let content = UNNotificationContent.standIn(
            body: "x", categoryIdentifier: category,
            userInfo: userInfo.isEmpty ? ["aps": ["alert": "x", "category": category]] : userInfo)
        return UNNotification(
            standInRequest: UNNotificationRequest(identifier: identifier, content: content, trigger: nil), date: Date())
    }
}

@Suite struct DelegateBehaviourTests {
    /// A tap that cold-launches the app reaches whichever delegate is set when launching ends: installing must not
    /// need an `await` (which would return from `didFinishLaunching` first).
    @Test func theDelegateIsInstalledSynchronouslyAndRoutesTheLaunchingTap() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let router = ResponseRouter(center: center)
        let ran = Locked([String]())
        try router.registry.register("like") { context in ran.withLock { $0.append(context.identifier) } }
        center.installResponseHandler(router)  // no await: this is what didFinishLaunching calls
        let installed = try #require(system.delegate as? PushbuttonNotificationDelegate)
        #expect(installed.handler as? ResponseRouter === router)
        // The system now delivers the tap that launched the app.
        system.setNotificationCategories([
            UNNotificationCategory(
                identifier: "message", actions: [UNNotificationAction(identifier: "like", title: "Like")],
                intentIdentifiers: [])
        ])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            installed.userNotificationCenter(
                system,
                didReceive: UNNotificationResponse(
                    standInNotification: StandIn.notification("launch"), actionIdentifier: "like")
            ) { continuation.resume() }
        }
        #expect(ran.withLock { $0 } == ["like"])
    }

    @Test func installingTwiceNeverMakesPushbuttonItsOwnPreviousDelegate() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let router = ResponseRouter(center: center)
        center.installResponseHandler(router)
        center.installResponseHandler(router)
        let installed = try #require(system.delegate as? PushbuttonNotificationDelegate)
        #expect(installed.previous == nil)
        let calls = Locked(0)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            installed.userNotificationCenter(
                system,
                didReceive: UNNotificationResponse(
                    standInNotification: StandIn.notification("n"),
                    actionIdentifier: UNNotificationDefaultActionIdentifier)
            ) {
                calls.withLock { $0 += 1 }
                continuation.resume()
            }
        }
        #expect(calls.withLock { $0 } == 1)
        center.installResponseHandler(nil)
        #expect(system.delegate == nil)
    }

    /// An app that asks for `.providesAppNotificationSettings` shows its settings screen from its own delegate.
    @Test func openSettingsIsForwardedToThePreviousDelegate() {
        let system = UNUserNotificationCenter()
        let app = SettingsAwareDelegate()
        system.delegate = app
        let center = SystemNotificationCenter(center: system, locale: "en")
        center.installResponseHandler(ResponseRouter(center: center))
        #expect(system.delegate is PushbuttonNotificationDelegate)
        system.standInOpenSettings(for: StandIn.notification("n7"))
        system.standInOpenSettings(for: nil)  // from the Settings app
        #expect(app.settingsRequests.withLock { $0 } == ["n7", nil])
    }

    @Test func foregroundPresentationIsNotForcedOn() async {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        center.installResponseHandler(ResponseRouter(center: center))
        // As the system does for an app without a delegate: not presented.
        #expect(await system.standInWillPresent(StandIn.notification("n")) == [])
    }

    @Test func foregroundPresentationHasDefaultsAPerNotificationDecisionAndThePreviousDelegatesAnswer() async {
        let system = UNUserNotificationCenter()
        let presentation = ForegroundPresentation(defaultOptions: [.banner, .list]) { notification in
            notification.categoryIdentifier == "chat" ? [.banner, .sound] : nil
        }
        let center = SystemNotificationCenter(center: system, locale: "en", foregroundPresentation: presentation)
        center.installResponseHandler(ResponseRouter(center: center))
        #expect(await system.standInWillPresent(StandIn.notification("a", category: "chat")) == [.banner, .sound])
        #expect(await system.standInWillPresent(StandIn.notification("b", category: "news")) == [.banner, .list])
        // With a delegate installed before Pushbutton's, it answers where the closure passes.
        let other = UNUserNotificationCenter()
        let previous = SettingsAwareDelegate(presentation: [.badge])
        other.delegate = previous
        let second = SystemNotificationCenter(center: other, locale: "en", foregroundPresentation: presentation)
        second.installResponseHandler(ResponseRouter(center: second))
        #expect(await other.standInWillPresent(StandIn.notification("c", category: "news")) == [.badge])
        #expect(await other.standInWillPresent(StandIn.notification("d", category: "chat")) == [.banner, .sound])
    }

    @Test func localNotificationsHoldPropertyListValuesOnly() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        try await center.add(
            LocalNotificationRequest(
                identifier: "r1", body: "Remind",
                userInfo: ["id": 3, "gone": nil, "nested": ["keep": true, "drop": nil], "list": [1, "two"]]))
        let request = try #require(system.standInPendingRequests.first)
        let userInfo = request.content.userInfo
        #expect(UNUserNotificationCenter.standInFirstNonPropertyList(in: userInfo, at: "userInfo") == nil)
        #expect(userInfo["gone"] == nil && userInfo["id"] as? Int == 3)
        #expect((userInfo["nested"] as? [String: Any])?.keys.sorted() == ["keep"])
        // Read back, it is the same JSON minus the nulls.
        #expect(
            UserNotificationsMapping.jsonObject(userInfo) == ["id": 3, "nested": ["keep": true], "list": [1, "two"]])
        // A null inside an array cannot be left out without moving the elements after it: a clear error instead.
        let error = await #expect(throws: PropertyListError.self) {
            try await center.add(
                LocalNotificationRequest(identifier: "r2", body: "x", userInfo: ["args": ["a", nil, "c"]]))
        }
        #expect(error?.description.hasPrefix("userInfo args[1] is null") == true)
        #expect(system.standInPendingRequests.count == 1)
        // The stand-in fails as the system does on a value a property list cannot hold.
        let direct = UNMutableNotificationContent()
        direct.userInfo = ["x": NSNull()]
        let failure = await withCheckedContinuation { continuation in
            system.add(UNNotificationRequest(identifier: "r3", content: direct, trigger: nil)) {
                continuation.resume(returning: $0.map { String(describing: $0) })
            }
        }
        #expect(failure == "userInfo.x is not a property-list value")
    }
}

@Suite struct RegisteredFormTests {
    static let manifest = Manifest(categories: [
        Pushbutton.Category(
            "message",
            actions: [
                Action(
                    "like", title: .localized(key: "like", values: ["en": "Like", "fr": "J’aime"]),
                    icon: .system("heart")),
                .textInput(
                    "reply", title: "Reply", buttonTitle: "Send",
                    placeholder: .localized(key: "p", values: ["en": "Message"])),
            ],
            hiddenPreviewsBodyPlaceholder: .localized(key: "h", values: ["en": "New message"]), summaryFormat: "%u more"
        )
    ])

    /// The system keeps titles as plain strings and loses icons; read back on the next launch, the manifest's
    /// categories must be recognised as the same registration.
    @Test func laterLaunchesReportNoCollisionWithTheirOwnEarlierRegistration() async {
        let system = UNUserNotificationCenter()
        let first = await CategoryRegistrar(center: SystemNotificationCenter(center: system, locale: "en")).register(
            Self.manifest)
        #expect(first.diagnostics.isEmpty)
        // The next launch: a new center object over the same system center.
        let second = await CategoryRegistrar(center: SystemNotificationCenter(center: system, locale: "en")).register(
            Self.manifest)
        #expect(second.diagnostics.isEmpty)
        #expect(second.registered == ["message"] && second.kept.isEmpty)
        #expect(system.standInCategories.map(\.identifier) == ["message"])
    }

    /// Two bridges over the same system center (the app's and a library's) register in turn, never over each other.
    @Test func registrationsThroughSeveralBridgesOverOneSystemCenterAllSurvive() async {
        let system = UNUserNotificationCenter()
        let bridges = (0..<4).map { _ in SystemNotificationCenter(center: system, locale: "en") }
        await withTaskGroup(of: Void.self) { group in
            for number in 0..<40 {
                group.addTask {
                    let category = Pushbutton.Category("sdk_\(number)", actions: [Action("ok", title: "OK")])
                    await CategoryRegistrar(center: bridges[number % 4]).register(CategorySet([category]))
                }
            }
        }
        #expect(system.standInCategories.count == 40)
    }

    @Test func aRealClashWithAnotherLibrarysCategoryIsStillReported() async throws {
        let system = UNUserNotificationCenter()
        system.setNotificationCategories([
            UNNotificationCategory(
                identifier: "message", actions: [UNNotificationAction(identifier: "buy", title: "Buy")],
                intentIdentifiers: [])
        ])
        let report = await CategoryRegistrar(center: SystemNotificationCenter(center: system, locale: "en")).register(
            Self.manifest)
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.code == .categoryCollision)
    }
}
