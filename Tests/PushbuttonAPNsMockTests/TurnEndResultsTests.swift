import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNs

/// A bulk send over the nghttp2 transport hands each result on at the end of the loop's turn (`DirectBulkPump`),
/// after the request its answer refilled is on its way: with one notification in flight, the next one is
/// taken from the input before the previous one's result is handed on — and still every result is handed on
/// once, before the send returns.
@Suite(.timeLimit(.minutes(2))) struct TurnEndResultsTests {
    @Test func theNextRequestIsTakenBeforeTheLastResultIsHandedOn() async throws {
        let fixture = try await MockFixture(topics: [MockFixture.topic], recordingLimit: 0)
        let client = try fixture.client(timeout: .seconds(10), transportClock: MockFixture.stoppedClock)
        let count = 30
        let source = CountingSource(try (1...count).map { try MockFixture.notification(token: MockFixture.token($0)) })
        await client.send(polling: source, maximumInFlight: 1) { notification, result, _ in
            source.handOn(notification, delivered: result.isDelivered)
        }
        let state = source.state.withLock { $0 }
        await client.shutdown()
        await fixture.stop()
        // Counted as the send returns: every result was handed on, once, each delivered.
        #expect(state.handed == count && Set(state.seen).count == count && state.delivered == count)
        // The first notification is taken before any answer; each next one as the answer before it arrives,
        // on the loop's thread, while that answer's result is still to be handed on.
        #expect(state.handedAtPoll.count == count)
        let early = state.handedAtPoll.enumerated().dropFirst().filter { $0.element == $0.offset - 1 }.count
        #expect(early == count - 1, "results handed on when each notification was taken: \(state.handedAtPoll)")
    }

    /// Prebuilt notifications that never run dry; each poll notes how many results were handed on by then.
    private final class CountingSource: SynchronousNotificationSource {
        struct State {
            var next = 0
            var handed = 0
            var delivered = 0
            var seen: [UUID] = []
            var handedAtPoll: [Int] = []
        }
        let notifications: [APNsNotification]
        let state = Locked(State())

        init(_ notifications: [APNsNotification]) { self.notifications = notifications }

        func poll() -> NotificationPoll {
            state.withLock { state in
                guard state.next < notifications.count else { return .finished }
                state.handedAtPoll.append(state.handed)
                state.next += 1
                return .notification(notifications[state.next - 1])
            }
        }

        func onAvailable(_ handler: @escaping @Sendable () -> Void) {}

        func handOn(_ notification: APNsNotification, delivered: Bool) {
            state.withLock { state in
                state.handed += 1
                state.seen.append(notification.apnsID)
                if delivered { state.delivered += 1 }
            }
        }
    }
}
