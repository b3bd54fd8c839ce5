// A BGTaskScheduler task that drains the outbox: what a tap's immediate attempt could not deliver reaches the
// backend in the background, without waiting for the next launch.
import Foundation
import PushbuttonOutbox
import PushbuttonUserNotifications

// snippet.hide
#if os(iOS) || os(Linux)
    func scheduleDrains(outbox: Outbox, gateway: GatewayClient) {
        // snippet.show
        // In application(_:didFinishLaunchingWithOptions:), before it returns:
        let refresh = OutboxRefresh(
            identifier: "com.example.chatter.outbox-drain",  // listed in BGTaskSchedulerPermittedIdentifiers
            outbox: outbox, sender: gateway.sender(), scheduler: SystemBackgroundTasks())
        if refresh.register() {
            try? refresh.schedule()  // the first run; each run asks for the next
        } else {
            print("add the identifier to BGTaskSchedulerPermittedIdentifiers in the Info.plist")
        }
        // snippet.hide
    }
#endif
