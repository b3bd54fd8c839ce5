import Foundation
import Pushbutton
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

@testable import PushbuttonReceiver

/// Each new built-in action on the simulated device: what it asks of the system, and where it is refused.
/// In the fixture, category "message" has `open` (foreground) and `like` (background).
@Suite struct BuiltinActionRoutingTests {
    struct Device {
        let center: SimulatedNotificationCenter
        let router: ResponseRouter
        let system: SimulatedSystemServices
        let tags: InMemoryTagStore
    }

    static func device(
        system: SimulatedSystemServices = SimulatedSystemServices(), tags: InMemoryTagStore = InMemoryTagStore(),
        installSystem: Bool = true, provisional: Bool = false
    ) async -> Device {
        let center = SimulatedNotificationCenter()
        let router = ResponseRouter(center: center, system: installSystem ? system : nil, tagStore: tags)
        _ = try? await center.requestAuthorization(options: provisional ? [.provisional] : [.alert, .sound])
        await CategoryRegistrar(center: center).register(Fixtures.manifest)
        await center.setResponseHandler(router)
        return Device(center: center, router: router, system: system, tags: tags)
    }

    /// Delivers a "message" notification whose `button` runs `specs`, taps it, and returns the report.
    static func tap(_ button: String, running specs: [ActionSpec], on device: Device) async throws -> RoutingReport {
        var payload = Payload.interactive(category: "message", title: "Anna", body: "Your code is 123456")
        for spec in specs {
            if button == "body" { payload.addBodyAction(spec) } else { payload.addAction(spec, forButton: button) }
        }
        let reports = Locked([RoutingReport]())
        device.router.observe { report in reports.withLock { $0.append(report) } }
        let id = await device.center.deliver(payload).notification.identifier
        let delivery =
            button == "body"
            ? try await device.center.tapBody(id) : try await device.center.tapButton(id, action: button)
        guard case .called = delivery.completion else {
            Issue.record("the completion handler was not called")
            throw SimulatorError(SimulatorError.Code(rawValue: "no-completion"), "no completion")
        }
        return try #require(reports.withLock { $0.last })
    }

    @Test func copyPutsTheTextOnThePasteboardFromAForegroundButton() async throws {
        let device = await Self.device()
        let report = try await Self.tap(
            "open", running: [ActionSpec(ActionSpec.copy, arguments: ["text": "123456"])], on: device)
        #expect(report.steps.map(\.outcome) == [.succeeded])
        #expect(report.steps.first?.kind == .builtin(ActionSpec.copy))
        #expect(await device.system.pasteboard == "123456")
    }

    @Test func foregroundOnlyActionsAreRefusedOnABackgroundButton() async throws {
        let device = await Self.device()
        let specs = [
            ActionSpec(ActionSpec.copy, arguments: ["text": "123456"]), ActionSpec(ActionSpec.rateApp),
            ActionSpec(ActionSpec.openSettings), ActionSpec(ActionSpec.requestPermission),
            ActionSpec(ActionSpec.share, arguments: ["url": "https://example.com/a"]),
        ]
        let report = try await Self.tap("like", running: specs, on: device)
        #expect(report.situation == .backgroundButton)
        #expect(
            report.steps.map(\.outcome)
                == specs.map { .refused("\($0.name) needs the app in the foreground, but this is a background button") }
        )
        #expect(await device.system.pasteboard == nil)
        #expect(await device.system.reviewRequests == 0)
        #expect(await device.system.openedSettings.isEmpty)
        #expect(await device.system.shareSheets.isEmpty)
        #expect(await device.center.authorizationRequests.count == 1)  // only the set-up's
    }

    @Test func rateAppAsksForTheReviewPrompt() async throws {
        let device = await Self.device()
        let report = try await Self.tap("body", running: [ActionSpec(ActionSpec.rateApp)], on: device)
        #expect(report.situation == .bodyTap && report.steps.map(\.outcome) == [.succeeded])
        #expect(await device.system.reviewRequests == 1)
    }

    @Test func openSettingsOpensTheAppOrItsNotificationPage() async throws {
        let device = await Self.device()
        let report = try await Self.tap(
            "open",
            running: [
                ActionSpec(ActionSpec.openSettings),
                ActionSpec(ActionSpec.openSettings, arguments: ["page": "notifications"]),
                ActionSpec(ActionSpec.openSettings, arguments: ["page": "privacy"]),
            ], on: device)
        #expect(report.steps.map(\.outcome) == [.succeeded, .succeeded, .refused("'privacy' is not a settings page")])
        #expect(await device.system.openedSettings == [.app, .notifications])
    }

    @Test func requestPermissionPromptsAfterProvisionalPermission() async throws {
        let device = await Self.device(provisional: true)
        #expect(await device.center.isProvisional)
        let report = try await Self.tap(
            "open", running: [ActionSpec(ActionSpec.requestPermission, arguments: ["options": ["alert", "sound"]])],
            on: device)
        #expect(report.steps.map(\.outcome) == [.succeeded])
        #expect(await device.center.permissionPromptCount == 1)
        #expect(await device.center.authorizationRequests.last == [.alert, .sound])
        #expect(await device.center.isProvisional == false)
    }

    @Test func requestPermissionAnswersWithoutAskingTwiceAndRefusesUnknownOptions() async throws {
        let device = await Self.device()
        let report = try await Self.tap(
            "open",
            running: [
                ActionSpec(ActionSpec.requestPermission),
                ActionSpec(ActionSpec.requestPermission, arguments: ["options": ["alerts"]]),
            ], on: device)
        // Already decided at set-up: iOS answers without asking again.
        #expect(report.steps.map(\.outcome) == [.succeeded, .refused("'\"alerts\"' is not a permission option")])
        #expect(await device.center.permissionPromptCount == 1)
        #expect(await device.center.authorizationRequests.last == [.alert, .badge, .sound])
    }

    @Test func aDeclinedPromptIsReportedAsFailed() async throws {
        let center = SimulatedNotificationCenter(authorization: .deny)
        let router = ResponseRouter(center: center, system: SimulatedSystemServices(), tagStore: InMemoryTagStore())
        _ = try await center.requestAuthorization(options: [.provisional])
        await CategoryRegistrar(center: center).register(Fixtures.manifest)
        await center.setResponseHandler(router)
        let device = Device(center: center, router: router, system: SimulatedSystemServices(), tags: InMemoryTagStore())
        let report = try await Self.tap("open", running: [ActionSpec(ActionSpec.requestPermission)], on: device)
        #expect(report.steps.map(\.outcome.failure?.message) == ["the user did not allow notifications"])
        #expect(report.steps.map(\.outcome.failure?.code) == [.permissionDenied])
        #expect(await center.permissionPromptCount == 1)
        #expect(await center.isAuthorized == false)
    }

    @Test func shareShowsTheShareSheetWithItsItems() async throws {
        let device = await Self.device()
        let report = try await Self.tap(
            "open",
            running: [
                ActionSpec(ActionSpec.share, arguments: ["text": "Lunch at noon", "url": "https://example.com/e/1"]),
                ActionSpec(ActionSpec.share),
            ], on: device)
        #expect(report.steps.map(\.outcome) == [.succeeded, .refused("nothing to share: no 'text' or 'url' argument")])
        #expect(
            await device.system.shareSheets == [ShareContent(text: "Lunch at noon", url: "https://example.com/e/1")])
    }

    @Test func tagsAreAddedAndRemovedEvenFromABackgroundButton() async throws {
        let tags = InMemoryTagStore(["news"])
        let device = await Self.device(tags: tags)
        let report = try await Self.tap(
            "like",
            running: [
                ActionSpec(ActionSpec.addTag, arguments: ["tag": "sports"]),
                ActionSpec(ActionSpec.addTag, arguments: ["tags": ["a", "b", "sports"]]),
                ActionSpec(ActionSpec.removeTag, arguments: ["tags": ["news", "a"]]),
                ActionSpec(ActionSpec.addTag, arguments: ["tag": "two words"]),
            ], on: device)
        #expect(report.situation == .backgroundButton)
        #expect(report.steps.map(\.outcome).prefix(3) == [.succeeded, .succeeded, .succeeded])
        guard case .refused(let reason) = report.steps.last?.outcome else {
            Issue.record("an invalid tag must be refused")
            return
        }
        #expect(reason.contains("whitespace"))
        #expect(try await tags.tags() == ["sports", "b"])
        #expect(await tags.changes == ["+sports", "+a", "+b", "-news", "-a"])
    }

    @Test func aGroupRunsItsActionsInOrderAsStepsOfTheirOwn() async throws {
        let device = await Self.device()
        let ran = Locked([String]())
        try device.router.registry.register("track") { context in
            ran.withLock { $0.append("track \(context.arguments["event"]?.stringValue ?? "")") }
        }
        let inner: JSONValue = [
            "action": "pushbutton.group",
            "args": ["actions": [["action": "track", "args": ["event": "copied"]]]],
        ]
        let group = ActionSpec(
            ActionSpec.group,
            arguments: [
                "actions": [
                    ["action": "pushbutton.copy", "args": ["text": "123456"]], inner,
                    ["action": "pushbutton.add_tag", "args": ["tag": "otp"]],
                ]
            ])
        let report = try await Self.tap("open", running: [group], on: device)
        #expect(
            report.steps.map(\.kind) == [
                .builtin(ActionSpec.copy), .payloadAction("track"), .builtin(ActionSpec.addTag),
            ])
        #expect(report.steps.map(\.outcome) == [.succeeded, .succeeded, .succeeded])
        #expect(await device.system.pasteboard == "123456")
        #expect(ran.withLock { $0 } == ["track copied"])
        #expect(try await device.tags.tags() == ["otp"])
    }

    @Test func aGroupTooDeepOrUnreadableIsRefusedAsOneStep() async throws {
        var nested: JSONValue = ["action": "pushbutton.dismiss"]
        for _ in 0..<BuiltinAction.maximumGroupDepth + 1 {
            nested = ["action": "pushbutton.group", "args": ["actions": [nested]]]
        }
        let tooDeep = ActionSpec(
            nested.objectValue!["action"]!.stringValue!, arguments: nested.objectValue!["args"]!.objectValue!)
        let steps = ResponseRouter.steps(for: [tooDeep, ActionSpec(ActionSpec.group, arguments: ["actions": "x"])])
        #expect(steps.map(\.kind) == [.builtin(ActionSpec.group), .builtin(ActionSpec.group)])
        #expect(
            steps.map(\.refusal) == ["groups nest at most 3 deep", "'actions' is a string, not an array of actions"])
        // Three levels are fine.
        let allowed = ActionSpec(
            ActionSpec.group,
            arguments: [
                "actions": [
                    [
                        "action": "pushbutton.group",
                        "args": [
                            "actions": [
                                ["action": "pushbutton.group", "args": ["actions": [["action": "pushbutton.dismiss"]]]]
                            ]
                        ],
                    ]
                ]
            ])
        #expect(ResponseRouter.steps(for: [allowed]).map(\.kind) == [.builtin(ActionSpec.dismiss)])
    }

    @Test func withoutSystemServicesTheActionsAreRefusedNotCrashed() async throws {
        let device = await Self.device(installSystem: false)
        let report = try await Self.tap("open", running: [ActionSpec(ActionSpec.rateApp)], on: device)
        #expect(report.steps.map(\.outcome) == [.refused("no system services are installed (the router's `system`)")])
    }

    @Test func aFailingServiceIsReportedAsFailed() async throws {
        let system = SimulatedSystemServices()
        await system.fail(.share, with: "no view controller to present the share sheet from", code: .noPresenter)
        let device = await Self.device(system: system)
        let report = try await Self.tap(
            "open", running: [ActionSpec(ActionSpec.share, arguments: ["text": "x"])], on: device)
        #expect(report.steps.map(\.outcome.failure?.message) == ["no view controller to present the share sheet from"])
        let failure = try #require(report.steps.first?.outcome.failure)
        #expect(failure.code == .systemServiceFailed)
        // The service's own error comes along, to branch on its code.
        #expect((failure.underlying as? SystemServiceError)?.code == .noPresenter)
    }

    @Test func aBackendTagStoreSendsEachChangeWithTheTapsIdempotencyKey() async throws {
        let backend = RecordingBackend()
        let local = InMemoryTagStore(["news"])
        let store = BackendTagStore(local: local, url: "https://push.example.com/v1/devices/d1/tags", backend: backend)
        let device = await Self.device()
        let router = ResponseRouter(center: device.center, system: device.system, tagStore: store)
        await device.center.setResponseHandler(router)
        let routed = Device(center: device.center, router: router, system: device.system, tags: local)
        _ = try await Self.tap(
            "like",
            running: [
                ActionSpec(ActionSpec.addTag, arguments: ["tags": ["team:lions", "social"]]),
                ActionSpec(ActionSpec.removeTag, arguments: ["tag": "news"]),
            ], on: routed)
        #expect(try await store.tags() == ["team:lions", "social"])
        let requests = backend.requests.withLock { $0 }
        #expect(requests.map(\.url) == Array(repeating: "https://push.example.com/v1/devices/d1/tags", count: 2))
        #expect(
            requests.map(\.body) == [
                ["add": ["team:lions", "social"], "remove": []], ["add": [], "remove": ["news"]],
            ])
        let id = try #require(requests.first?.notificationIdentifier)
        #expect(requests.map(\.idempotencyKey) == ["tags:\(id):like:0", "tags:\(id):like:1"])
        #expect(requests.allSatisfy { $0.method == "POST" && $0.actionIdentifier == "like" })
    }

    @Test func userDefaultsTagStoreKeepsTagsAcrossInstances() async throws {
        let suite = "pushbutton-tests-\(UUID().uuidString)"
        defer { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) }
        let store = UserDefaultsTagStore(suiteName: suite)
        try await store.apply(TagChange(added: ["b", "a", "b", "c"], idempotencyKey: "1"))
        try await store.apply(TagChange(removed: ["c", "d"], idempotencyKey: "2"))
        #expect(try await UserDefaultsTagStore(suiteName: suite).tags() == ["a", "b"])
        #expect(UserDefaults(suiteName: suite)?.stringArray(forKey: "pushbutton.tags") == ["a", "b"])
    }
}
