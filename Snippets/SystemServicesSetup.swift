// The built-in actions that reach beyond notifications (copy, share, rate, settings) and tags that reach the
// backend through the outbox.
import Foundation
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
#if canImport(UIKit)
    // snippet.show
    import UIKit
// snippet.hide
#else
    import UserNotificationsStandIn
#endif
#if canImport(UIKit) || os(Linux)
    @MainActor
    final class ChatViewController: UIViewController {}

    @MainActor
    func makeRouter(
        center: SystemNotificationCenter, outbox: Outbox, deviceID: String, chat: ChatViewController
    ) -> ResponseRouter {
        // snippet.show
        let router = ResponseRouter(
            center: center, backend: outbox, urlOpener: UIKitURLOpener(),
            system: UIKitSystemServices(presenter: { [weak chat] in chat }),
            tagStore: BackendTagStore(url: "https://api.example.com/devices/\(deviceID)/tags", backend: outbox))
        // snippet.hide
        return router
    }
#endif
