import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

/// The UIKit and StoreKit mapping of the built-in actions, against the stand-in. Serialized: the application
/// object and the general pasteboard are process-wide, as on a device.
@Suite(.serialized) @MainActor struct SystemServicesBridgeTests {
    /// A foreground scene whose key window shows `root`, installed as the app's only scene.
    static func installScene(
        _ state: UIScene.ActivationState = .foregroundActive, root: UIViewController = UIViewController()
    ) -> UIWindowScene {
        let scene = UIWindowScene(standInActivationState: state)
        let window = UIWindow(standInBounds: CGRect(x: 0, y: 0, width: 820, height: 1180))
        window.rootViewController = root
        scene.standInKeyWindow = window
        UIApplication.shared.standInScenes = [scene]
        return scene
    }

    @Test func copyWritesTheGeneralPasteboard() async throws {
        try await UIKitSystemServices().copy("123456")
        #expect(UIPasteboard.general.string == "123456")
    }

    @Test func openSettingsOpensApplesSettingsURLs() async throws {
        UIApplication.shared.standInOpenedURLs = []
        let services = UIKitSystemServices()
        try await services.openSettings(.app)
        try await services.openSettings(.notifications)
        #expect(
            UIApplication.shared.standInOpenedURLs.map(\.absoluteString) == [
                UIApplication.openSettingsURLString, UIApplication.openNotificationSettingsURLString,
            ])
        UIApplication.shared.standInOpensURLs = false
        defer { UIApplication.shared.standInOpensURLs = true }
        await #expect(throws: SystemServiceError(.notOpened, "the system did not open app-settings:")) {
            try await services.openSettings(.app)
        }
    }

    @Test func rateAppAsksStoreKitInTheForegroundScene() async throws {
        let background = UIWindowScene(standInActivationState: .background)
        let becomingActive = UIWindowScene(standInActivationState: .foregroundInactive)
        UIApplication.shared.standInScenes = [background, becomingActive]
        #expect(UIKitSystemServices.foregroundScene() === becomingActive)
        try await UIKitSystemServices().requestReview()
        #expect(becomingActive.standInReviewRequests == 1 && background.standInReviewRequests == 0)

        UIApplication.shared.standInScenes = [background]
        await #expect(
            throws: SystemServiceError(.noPresenter, "no foreground window scene to show the rating prompt in")
        ) {
            try await UIKitSystemServices().requestReview()
        }
        // The app may say which scene.
        try await UIKitSystemServices(scene: { background }).requestReview()
        #expect(background.standInReviewRequests == 1)
    }

    @Test func shareIsPresentedFromTheTopViewControllerAnchoredForAnIPad() async throws {
        let root = UIViewController()
        let modal = UIViewController()
        root.present(modal, animated: false)
        _ = Self.installScene(root: root)
        try await UIKitSystemServices().share(ShareContent(text: "Lunch?", url: "https://example.com/e/1"))
        let sheet = try #require(modal.presentedViewController as? UIActivityViewController)
        #expect(sheet.standInActivityItems.count == 2)
        #expect(sheet.standInActivityItems.first as? String == "Lunch?")
        #expect((sheet.standInActivityItems.last as? URL)?.absoluteString == "https://example.com/e/1")
        let popover = try #require(sheet.popoverPresentationController)
        #expect(popover.sourceView === modal.view)
        #expect(popover.sourceRect == CGRect(x: 195, y: 422, width: 0, height: 0))
    }

    @Test func shareWithoutAPresenterFailsWithTheReason() async throws {
        UIApplication.shared.standInScenes = []
        await #expect(
            throws: SystemServiceError(.noPresenter, "no view controller on screen to present the share sheet from")
        ) {
            try await UIKitSystemServices().share(ShareContent(text: "x"))
        }
    }

    @Test func aTapRunsTheBridgeThroughTheRouter() async throws {
        let root = UIViewController()
        _ = Self.installScene(root: root)
        let center = SimulatedNotificationCenter()
        let router = ResponseRouter(center: center, system: UIKitSystemServices(), tagStore: InMemoryTagStore())
        _ = try await center.requestAuthorization(options: [.alert])
        await center.setNotificationCategories([
            Pushbutton.Category("code", actions: [Action("copy", title: "Copy code", options: .foreground)])
        ])
        await center.setResponseHandler(router)
        var payload = Payload.interactive(category: "code", body: "Your code is 918273")
        payload.addAction(
            ActionSpec(
                ActionSpec.group,
                arguments: [
                    "actions": [
                        ["action": "pushbutton.copy", "args": ["text": "918273"]],
                        ["action": "pushbutton.share", "args": ["text": "918273"]],
                    ]
                ]), forButton: "copy")
        let id = await center.deliver(payload).notification.identifier
        let delivery = try await center.tapButton(id, action: "copy")
        guard case .called = delivery.completion else {
            Issue.record("the completion handler was not called")
            return
        }
        #expect(UIPasteboard.general.string == "918273")
        #expect(root.presentedViewController is UIActivityViewController)
    }
}
