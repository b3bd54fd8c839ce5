import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// The mock end to end: a real client (the nghttp2 transport, TLS with the mock's generated CA) against the mock.
@Suite(.timeLimit(.minutes(5))) struct MockAPNsTests {
    @Test func acceptsAValidNotificationOverTLSAndRecordsIt() async throws {
        let fixture = try await MockFixture()
        let client = try fixture.client()
        let notification = try MockFixture.notification()
        let result = await client.send(notification)
        guard case .delivered(let id, let uniqueID?) = result else {
            Issue.record("not delivered: \(result)")
            return
        }
        #expect(id == notification.apnsID && !uniqueID.isEmpty)
        let recorded = try #require(fixture.mock.notifications.first)
        #expect(recorded.apnsID == notification.apnsID.uuidString.lowercased())
        #expect(recorded.deviceToken == MockFixture.token(1) && recorded.topic == MockFixture.topic)
        #expect(recorded.pushType == "alert" && recorded.priority == 10 && recorded.uniqueID == uniqueID)
        #expect(recorded.typedPayload?.aps.category == "reply")
        #expect(fixture.mock.counters.accepted == 1 && fixture.mock.counters.connections == 1)
        await client.shutdown()
        await fixture.stop()
    }
}
