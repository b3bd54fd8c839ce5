import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonUserNotifications
import Testing

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

/// The device's set-up in one call: the router is installed before the call returns, the categories follow.
@Suite struct StartTests {
    @Test func startInstallsTheRouterSynchronouslyAndRegistersTheManifest() async throws {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let manifest = Manifest(categories: [Pushbutton.Category("message", actions: [Action("like", title: "Like")])])

        let registration = center.start(routingTo: ResponseRouter(center: center), registering: manifest)
        #expect(system.delegate != nil)  // before any await: a launching tap would reach the router

        let report = await registration.value
        #expect(report.registered == ["message"])
        #expect(system.standInCategories.map(\.identifier) == ["message"])
    }
}
