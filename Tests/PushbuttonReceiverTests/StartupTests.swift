import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// Records the device tokens handed over.
final class RecordingTokens: DeviceTokenHandler {
    let tokens = Locked([Data]())
    func deviceTokenReceived(_ deviceToken: Data) async throws { tokens.withLock { $0.append(deviceToken) } }
}

/// The launch set-up on the simulated center: categories, permission, the APNs token and its hand-off.
@Suite struct StartupTests {
    @Test func startupRegistersAsksForATokenAndAsksThePermissionGiven() async throws {
        let center = SimulatedNotificationCenter(authorization: .grant)
        let remote = SimulatedRemoteNotifications()
        let startup = NotificationStartup(
            center: center, manifest: Fixtures.manifest, authorization: .request([.alert, .badge]),
            remoteNotifications: remote)
        let report = await startup.run()
        #expect(report.authorized == true)
        #expect(report.authorizationError == nil)
        #expect(report.registeredForRemoteNotifications)
        #expect(report.registration.registered.contains("message"))
        #expect(await center.authorizationRequests == [[.alert, .badge]])
        #expect(remote.registrations == 1)
    }

    @Test func aRefusalIsReportedAndTheTokenIsStillAskedFor() async throws {
        let center = SimulatedNotificationCenter(authorization: .deny)
        let remote = SimulatedRemoteNotifications()
        let report = await NotificationStartup(
            center: center, manifest: Fixtures.manifest, remoteNotifications: remote
        ).run()
        #expect(report.authorized == false)
        #expect(await center.authorizationRequests == [[.alert, .sound, .badge]])
        #expect(remote.registrations == 1)
    }

    @Test func optingOutAsksNothing() async throws {
        let center = SimulatedNotificationCenter()
        let report = await NotificationStartup(
            center: center, manifest: Fixtures.manifest, authorization: .none, remoteNotifications: nil
        ).run()
        #expect(report.authorized == nil)
        #expect(!report.registeredForRemoteNotifications)
        #expect(await center.authorizationRequests.isEmpty)
        #expect(report.registration.registered.contains("message"))
    }

    @Test func theTokenReachesTheHandler() async throws {
        let tokens = RecordingTokens()
        let remote = SimulatedRemoteNotifications()
        let startup = NotificationStartup(
            center: SimulatedNotificationCenter(), manifest: Fixtures.manifest, remoteNotifications: remote,
            deviceTokens: tokens)
        _ = await startup.run()
        try await remote.deliverToken(to: startup)
        #expect(tokens.tokens.withLock { $0 } == [remote.token])
        #expect(startup.deviceToken == remote.token)
    }
}
