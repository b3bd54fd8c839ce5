import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonUserNotifications
import Testing

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

/// The device's set-up in one call: the router is installed before the call returns; the categories, the
/// permission request, the APNs registration and the token hand-off follow.
@Suite struct StartTests {
    static let manifest = Manifest(categories: [
        Pushbutton.Category("message", actions: [Action("like", title: "Like")])
    ])

    @Test func startInstallsTheRouterSynchronouslyRegistersAndAsksForPermission() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let remote = SimulatedRemoteNotifications()

        let setup = center.start(
            routingTo: ResponseRouter(center: center), registering: Self.manifest, remoteNotifications: remote)
        #expect(system.delegate != nil)  // before any await: a launching tap would reach the router

        let report = await setup.value
        #expect(report.registration.registered == ["message"])
        #expect(system.standInCategories.map(\.identifier) == ["message"])
        #expect(report.authorized == true)
        #expect(system.standInAuthorizationRequests == [[.alert, .sound, .badge]])
        #expect(remote.registrations == 1)
    }

    @Test func theAuthorizationOptionsAreTheAppsAndItCanOptOut() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        _ = await center.start(
            routingTo: ResponseRouter(center: center), registering: Self.manifest,
            authorization: .request([.alert, .provisional]), remoteNotifications: nil
        ).value
        #expect(system.standInAuthorizationRequests == [[.alert, .provisional]])

        let quiet = UNUserNotificationCenter()
        let quietCenter = SystemNotificationCenter(center: quiet, locale: "en")
        let report = await quietCenter.start(
            routingTo: ResponseRouter(center: quietCenter), registering: Self.manifest, authorization: .none,
            remoteNotifications: nil
        ).value
        #expect(quiet.standInAuthorizationRequests.isEmpty)
        #expect(report.authorized == nil)
    }

    /// By default the app registers with APNs through `UIApplication.shared`.
    @Test func theDefaultRegistersThroughTheApplication() async throws {
        let center = SystemNotificationCenter(center: UNUserNotificationCenter(), locale: "en")
        let before = await MainActor.run { UIApplication.shared.standInRemoteRegistrations }
        let report = await center.start(routingTo: ResponseRouter(center: center), registering: Self.manifest).value
        let after = await MainActor.run { UIApplication.shared.standInRemoteRegistrations }
        #expect(report.registeredForRemoteNotifications)
        #expect(after > before)
    }

    /// The token the app delegate receives reaches the gateway client, which commits its registration to the
    /// outbox, whose folder `start`'s caller never had to create.
    @Test func theDeviceTokenReachesTheGatewayClientThroughTheOutbox() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-start-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: directory.appendingPathComponent("Application Support/taps.sqlite").path)
        let client = try GatewayClient(
            connection: GatewayConnection(baseURL: "https://push.example.com", app: "chat", publishableKey: "pb_pk_x"),
            outbox: outbox)
        let center = SystemNotificationCenter(center: UNUserNotificationCenter(), locale: "en")
        let router = center.start(
            registering: Self.manifest, backend: outbox, remoteNotifications: nil, deviceTokens: client)
        client.attach(to: router)

        try await center.didRegisterForRemoteNotifications(withDeviceToken: Data([0xab, 0x01])).value
        #expect(await client.deviceToken == "ab01")
        let registrations = try await outbox.entries(.pending).filter { $0.method == "PUT" }
        #expect(registrations.map(\.url) == ["https://push.example.com/v1/apps/chat/devices/ab01"])
    }

    /// An app that sets its own delegate (forwarding to the router, as the guide's second pattern does) and then
    /// calls `start` (the first): Pushbutton's delegate forwards to the app's, and each tap is routed once.
    @Test func bothDelegatePatternsTogetherRouteEachTapOnce() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let router = ResponseRouter(center: center)
        let runs = Locked(0)
        try router.registry.register("like") { _ in runs.withLock { $0 += 1 } }
        let appDelegate = ForwardingAppDelegate(router: router)
        system.delegate = appDelegate
        center.start(routingTo: router, registering: Self.manifest, authorization: .none, remoteNotifications: nil)
        let installed = try #require(system.delegate as? PushbuttonNotificationDelegate)
        #expect(installed.previous === appDelegate)

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            installed.userNotificationCenter(
                system,
                didReceive: UNNotificationResponse(
                    standInNotification: StandIn.notification("n"), actionIdentifier: "like")
            ) { continuation.resume() }
        }
        #expect(runs.withLock { $0 } == 1)
        #expect(appDelegate.forwarded.withLock { $0 } == 1)
    }
}

/// The guide's own-delegate pattern: the app's delegate hands every response to the router itself.
final class ForwardingAppDelegate: NSObject, UNUserNotificationCenterDelegate, Sendable {
    let router: ResponseRouter
    let forwarded = Locked(0)
    init(router: ResponseRouter) { self.router = router }

    func userNotificationCenter(
        _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
        withCompletionHandler completionHandler: @escaping @Sendable () -> Void
    ) {
        forwarded.withLock { $0 += 1 }
        router.handle(UserNotificationsMapping.response(response), completionHandler: completionHandler)
    }
}
