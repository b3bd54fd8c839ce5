import Foundation
import Pushbutton
import PushbuttonAPNsMock
import Testing

@testable import PushbuttonAPNs

/// A connection rewrites only the token and the apns-id of its last header list when the next notification
/// has the same shape (`NotificationHeaderShape`), and builds the list again when anything else changes:
/// every request the mock records carries its own notification's headers, whatever came before it.
@Suite(.timeLimit(.minutes(2))) struct HeaderShapeTests {
    @Test func everyRequestCarriesItsOwnHeadersAsTheShapeChanges() async throws {
        let fixture = try await MockFixture()
        let client = try fixture.client()
        var sent: [APNsNotification] = []
        for number in 1...60 {
            // Runs of the same shape, broken by a longer token, another priority, a collapse id, an
            // expiration, another push type or another payload size.
            let token = number % 11 == 0 ? MockFixture.token(number) + "ab" : MockFixture.token(number)
            var notification = try MockFixture.notification(
                token: token,
                payload: number % 13 == 0 ? #"{"aps":{"alert":"Longer hello"}}"# : #"{"aps":{"alert":"Hello"}}"#,
                pushType: number % 17 == 0 ? .background : .alert,
                priority: number % 17 == 0 ? 5 : number % 7 == 0 ? 5 : 10)
            if number % 17 == 0 { notification.payload = Array(#"{"aps":{"content-available":1}}"#.utf8) }
            if number % 5 == 0 { notification.collapseID = "group-\(number % 3)" }
            if number % 9 == 0 { notification.expiration = Int64(2_000_000_000 + number) }
            sent.append(notification)
        }
        let notifications = AsyncStream<APNsNotification> { continuation in
            for notification in sent { continuation.yield(notification) }
            continuation.finish()
        }
        var delivered = 0
        await client.send(notifications, maximumInFlight: 8) { _, result in
            if result.isDelivered { delivered += 1 }
        }
        await client.shutdown()
        let recorded = Dictionary(uniqueKeysWithValues: fixture.mock.notifications.map { ($0.apnsID.lowercased(), $0) })
        await fixture.stop()
        #expect(delivered == sent.count && recorded.count == sent.count)
        for notification in sent {
            let id = UUIDText.lowercase(notification.apnsID)
            guard let request = recorded[id] else {
                Issue.record("no request with apns-id \(id)")
                continue
            }
            #expect(request.deviceToken == notification.deviceToken.hex)
            #expect(request.priority == notification.priority)
            #expect(request.pushType == notification.pushType.rawValue)
            #expect(request.collapseID == notification.collapseID)
            #expect(request.expiration == notification.expiration)
            #expect(request.payload == notification.payload)
        }
    }
}
