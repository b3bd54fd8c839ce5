import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// An app that installs Pushbutton's delegate and also forwards from its own (which Pushbutton's delegate calls
/// as the previous one) hands each response to the router twice: it is routed once, and both completion
/// handlers are called.
@Suite struct RouteOnceTests {
    static func response(_ identifier: String) -> NotificationResponse {
        NotificationResponse(
            notification: DeliveredNotification(
                identifier: identifier, date: Date(timeIntervalSince1970: 1_000), userInfo: [:],
                categoryIdentifier: "message"),
            actionIdentifier: "like")
    }

    @Test func theSameResponseHandedOverTwiceWhileRoutingIsRoutedOnce() async throws {
        let router = ResponseRouter(center: SimulatedNotificationCenter())
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let runs = Locked(0)
        try router.registry.register("like") { _ in
            runs.withLock { $0 += 1 }
            for await _ in gate { break }
        }
        let reports = Locked(0)
        router.observe { _ in reports.withLock { $0 += 1 } }
        let (done, finished) = AsyncStream.makeStream(of: String.self)
        router.handle(Self.response("n1")) { finished.yield("pushbutton") }
        router.handle(Self.response("n1")) { finished.yield("app") }
        open.yield()
        var completions: [String] = []
        for await name in done {
            completions.append(name)
            if completions.count == 2 { break }
        }
        #expect(completions.sorted() == ["app", "pushbutton"])
        #expect(runs.withLock { $0 } == 1)
        #expect(reports.withLock { $0 } == 1)
    }

    @Test func aLaterTapOnAnotherNotificationIsRoutedAgain() async throws {
        let router = ResponseRouter(center: SimulatedNotificationCenter())
        let runs = Locked(0)
        try router.registry.register("like") { _ in runs.withLock { $0 += 1 } }
        for identifier in ["n1", "n2"] {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                router.handle(Self.response(identifier)) { continuation.resume() }
            }
        }
        #expect(runs.withLock { $0 } == 2)
    }
}
