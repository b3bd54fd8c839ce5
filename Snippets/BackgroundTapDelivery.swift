// A background "Like" that reaches the backend during the tap: committed to the outbox, then sent at once
// within the action's background window; what does not make it waits in the outbox.
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonUserNotifications

// snippet.hide
#if os(iOS) || os(Linux)
    func startWithImmediateDelivery(center: SystemNotificationCenter, manifest: Manifest) throws -> ResponseRouter {
        // snippet.show
        let outbox = try Outbox.applicationSupport()
        let backend = ImmediateDelivery(
            outbox: outbox, sender: URLSessionSender(timeout: .seconds(8)), budget: .seconds(15),
            window: UIKitBackgroundWindow())  // a background task assertion; stops when iOS says time is up
        let router = center.start(registering: manifest, backend: backend)
        // snippet.hide
        return router
    }
#endif
