// The durable outbox: in Application Support (its folder created at first launch), behind the router, drained
// by a worker.
import Foundation
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting

// snippet.hide
func setUpOutbox() async {
    let center = SimulatedNotificationCenter()
    do {
        // snippet.show
        let outbox = try Outbox.applicationSupport()  // …/Application Support/pushbutton-outbox.sqlite
        let router = ResponseRouter(center: center, backend: outbox)  // callbacks are committed, then completed
        outbox.attach(to: router)  // the tap log

        // At launch, on background fetch, when the network comes back:
        let report = try await outbox.drain(sender: URLSessionSender())
        print(report)
        // Or a long-running worker:
        Task { try await outbox.run(sender: URLSessionSender()) }
        // snippet.hide
    } catch {
        print(error)
    }
}
