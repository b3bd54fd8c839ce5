import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonAPNs

/// A direct bulk send lets go of everything once it returns: the gateway's workers start one per leased
/// batch, and a pump kept alive by its own spare deliveries kept every batch's notifications.
@Suite(.timeLimit(.minutes(5))) struct DirectBulkPumpReleaseTests {
    @Test func aFinishedSendKeepsNeitherItsInputNorItsHandler() async throws {
        let client = APNsClient(transport: APNsClientLifecycleTests.ScriptedTransport(), tokens: nil)
        weak var released: ArraySource?
        weak var handlerState: DirectBulkPumpTests.Collected?
        do {
            let channel = ArraySource(try (0..<20).map { _ in try APNsClientLifecycleTests.notification() })
            let collected = DirectBulkPumpTests.Collected()
            released = channel
            handlerState = collected
            await client.send(polling: channel, maximumInFlight: 4) { collected.add($0, $1, $2) }
            #expect(collected.count == 20)
        }
        // The transport's thread resumes the caller from inside the pump and lets go of it as that call returns:
        // a moment later, which a loaded machine can stretch (1 run of the whole suite read the input still
        // referred to). What this guards against is a pump that is never let go (it once kept itself alive by
        // its spare deliveries, and every batch's notifications with it): waited for, without a signal to wait on.
        await Poll.until(every: .milliseconds(5), within: .seconds(30)) { released == nil && handlerState == nil }
        #expect(released == nil, "the input is still referred to after the send returned")
        #expect(handlerState == nil, "the result handler is still referred to after the send returned")
    }
}

/// Notifications handed out one by one from an array.
final class ArraySource: SynchronousNotificationSource {
    private let remaining: Locked<[APNsNotification]>
    init(_ notifications: [APNsNotification]) { remaining = Locked(notifications.reversed()) }
    func poll() -> NotificationPoll {
        remaining.withLock { $0.popLast().map { .notification($0) } ?? .finished }
    }
    func onAvailable(_ handler: @escaping @Sendable () -> Void) {}
}
