import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// A read of many answers pauses to submit the requests they refilled (`ClientConnection.readFrames`):
/// with a deep window on one connection every notification still ends exactly once, frames split across
/// the slices nghttp2 is fed are read whole, and the mock accepts each notification once.
@Suite(.timeLimit(.minutes(5))) struct MidReadSubmissionTests {
    @Test func aDeepWindowOnOneConnectionEndsEveryNotificationOnce() async throws {
        let fixture = try await MockFixture(recordingLimit: 0)
        let transport = try NGHTTP2Transport(
            .init(environment: fixture.mock.environment, connections: 1), clock: MockFixture.stoppedClock)
        let client = APNsClient(
            transport: transport,
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID),
            requestTimeout: .seconds(10))
        let count = 6000
        let notifications = AsyncStream<APNsNotification> { continuation in
            for number in 1...count {
                continuation.yield(try! MockFixture.notification(token: MockFixture.token(number)))
            }
            continuation.finish()
        }
        var seen = Set<UUID>()
        var delivered = 0
        await client.send(notifications, maximumInFlight: 1000) { notification, result in
            seen.insert(notification.apnsID)
            if result.isDelivered { delivered += 1 }
        }
        let pauses = transport.loops.map { $0.readPauses.load(ordering: .relaxed) }.reduce(0, +)
        await client.shutdown()
        let counters = fixture.mock.counters
        await fixture.stop()
        #expect(seen.count == count && delivered == count)
        #expect(counters.accepted == count && counters.duplicateAcceptances == 0)
        print("mid-read submission: \(count) notifications, 1000 in flight, \(pauses) reads paused to submit")
    }
}
