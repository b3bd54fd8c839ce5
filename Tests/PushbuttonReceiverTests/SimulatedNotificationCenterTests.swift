import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import Testing

@Suite struct SimulatedNotificationCenterTests {
    @Test func setNotificationCategoriesReplacesTheWholeSetLikeIOS() async {
        let center = SimulatedNotificationCenter()
        await center.setNotificationCategories([Pushbutton.Category("a", actions: [])])
        await center.setNotificationCategories([Pushbutton.Category("b", actions: [])])
        #expect(await center.registeredCategoryIdentifiers == ["b"])
    }

    @Test func nothingIsShownUntilPermissionIsGranted() async throws {
        let center = SimulatedNotificationCenter(authorization: .deny)
        #expect(await center.deliver(.interactive(category: "c", body: "x")).isShown == false)
        #expect(try await center.requestAuthorization(options: [.alert]) == false)
        #expect(await center.deliver(.interactive(category: "c", body: "x")).isShown == false)
        #expect(await center.deliveredNotifications.isEmpty)
    }

    @Test func anUnregisteredCategoryShowsNoButtonsAndNoError() async throws {
        let (center, _, _, _) = await Fixtures.setUp()
        let shown = await center.deliver(.interactive(category: "mesage", body: "x"))
        #expect(shown.isShown && !shown.categoryIsRegistered && shown.buttons.isEmpty)
        await #expect(throws: SimulatorError.self) {
            try await center.tapButton(shown.notification.identifier, action: "like")
        }
    }

    @Test func buttonsShowTheirStyleInTheDevicesLanguage() async throws {
        let center = SimulatedNotificationCenter(locale: "fr")
        _ = try await center.requestAuthorization(options: [.alert])
        await CategoryRegistrar(center: center).register(Fixtures.manifest)
        let shown = await center.deliver(.interactive(category: "message", body: "x"))
        #expect(shown.buttons.map(\.title) == ["Répondre", "J’aime", "Open", "Delete"])
        #expect(shown.buttons[0].textField?.buttonTitle == "Send")
        #expect(shown.buttons[1].requiresUnlock && !shown.buttons[1].opensApp && shown.buttons[1].icon == "heart")
        #expect(shown.buttons[2].opensApp)
        #expect(shown.buttons[3].isDestructive)
        #expect(shown.reportsDismissal)
    }

    @Test func theUserCanOnlyDoWhatTheNotificationOffers() async throws {
        let (center, _, _, _) = await Fixtures.setUp()
        let id = await center.deliver(.interactive(category: "message", body: "x")).notification.identifier
        await #expect(
            throws: SimulatorError(
                .needsTextInput, "'reply' opens a text field; the user replies with text (use reply)")
        ) {
            try await center.tapButton(id, action: "reply")
        }
        await #expect(throws: SimulatorError.self) { try await center.reply(id, action: "like", text: "hi") }
        await #expect(throws: SimulatorError.self) { try await center.tapButton(id, action: "nope") }
        _ = try await center.tapButton(id, action: "like")
        await #expect(throws: SimulatorError.self) { try await center.tapBody(id) }
        // The same refusals, by code.
        let id2 = await center.deliver(.interactive(category: "message", body: "y")).notification.identifier
        let notText = await #expect(throws: SimulatorError.self) {
            try await center.reply(id2, action: "like", text: "hi")
        }
        #expect(notText?.code == .notTextInput)
        let noButton = await #expect(throws: SimulatorError.self) { try await center.tapButton(id2, action: "nope") }
        #expect(noButton?.code == .noSuchButton)
        let handled = await #expect(throws: SimulatorError.self) { try await center.tapBody(id) }
        #expect(handled?.code == .notInCenter)
        let unscheduled = await #expect(throws: SimulatorError.self) { try await center.fire("never-scheduled") }
        #expect(unscheduled?.code == .notScheduled)
    }

    @Test func dismissalIsReportedOnlyWithCustomDismissAction() async throws {
        let (center, _, _, _) = await Fixtures.setUp()
        let quiet = await center.deliver(.interactive(category: "quiet", body: "x")).notification.identifier
        #expect(try await center.dismiss(quiet) == nil)
        let message = await center.deliver(.interactive(category: "message", body: "x")).notification.identifier
        let delivery = try #require(try await center.dismiss(message))
        #expect(delivery.response.actionIdentifier == SystemIdentifiers.dismissAction)
    }

    @Test func localNotificationsFireWithTheirCategory() async throws {
        let clock = ManualClock()
        let center = SimulatedNotificationCenter(clock: clock)
        _ = try await center.requestAuthorization(options: [.alert])
        await CategoryRegistrar(center: center).register(Fixtures.manifest)
        try await center.add(LocalNotificationRequest(identifier: "now", body: "Now", categoryIdentifier: "quiet"))
        try await center.add(
            LocalNotificationRequest(
                identifier: "later", body: "Later", categoryIdentifier: "message", delay: .seconds(60)))
        try await center.add(LocalNotificationRequest(identifier: "never", body: "Never"))
        await center.removePendingNotificationRequests(withIdentifiers: ["never"])
        #expect(await center.pendingRequests.map(\.identifier) == ["now", "later"])
        let now = try await center.fire("now")
        #expect(now.buttons.map(\.identifier) == ["ok"] && now.notification.isRemote == false)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(60))
        while await center.deliveredNotifications.count < 2 { await Task.yield() }
        #expect(await center.deliveredNotifications.last?.buttons.count == 4)
        #expect(await center.pendingRequests.isEmpty)
    }

    @Test func anAppThatNeverCompletesIsEndedWhenTheWindowCloses() async throws {
        struct Silent: NotificationResponseHandler {
            func handle(_ response: NotificationResponse, completionHandler: @escaping () -> Void) {}
        }
        let clock = ManualClock()
        let center = SimulatedNotificationCenter(clock: clock)
        _ = try await center.requestAuthorization(options: [.alert])
        await center.setResponseHandler(Silent())
        let id = await center.deliver(.interactive(category: "c", body: "x")).notification.identifier
        async let delivery = center.tapBody(id)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(30))
        #expect(try await delivery.completion == .expired)
    }
}
