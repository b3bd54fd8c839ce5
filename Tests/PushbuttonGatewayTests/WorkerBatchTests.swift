import Foundation
import PushbuttonAPNs
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// A leased batch as the sender's direct path reads it: handed out in lease order, each outcome kept by
/// apns-id wherever it arrives, the recorded batch back in lease order.
struct WorkerBatchTests {
    static func batch(_ count: Int) throws -> WorkerBatch {
        var deliveries: [LeasedDelivery] = []
        var notifications: [APNsNotification] = []
        for index in 0..<count {
            let id = UUID()
            let token = String(format: "%064x", index + 1)
            deliveries.append(
                LeasedDelivery(
                    id: Int64(index + 1), notificationID: "n1", app: "chat", token: token,
                    apnsID: id.uuidString.lowercased(), payload: Array("{}".utf8), topic: "com.example.chat",
                    pushType: "alert", priority: nil, expiration: nil, collapseID: nil, leases: 1, leaseToken: "t"))
            notifications.append(
                APNsNotification(
                    deviceToken: try #require(DeviceToken(storedHex: token)), payload: Array("{}".utf8),
                    topic: "com.example.chat", apnsID: id))
        }
        return WorkerBatch(deliveries: deliveries, notifications: notifications)
    }

    @Test func handsOutEveryNotificationOnceInOrderThenFinishes() throws {
        let batch = try Self.batch(3)
        var polled: [UUID] = []
        while case .notification(let notification) = batch.poll() { polled.append(notification.apnsID) }
        #expect(polled == batch.notifications.map(\.apnsID))
        guard case .finished = batch.poll() else {
            Issue.record("a drained batch must say it is finished")
            return
        }
    }

    @Test func outcomesComeBackInLeaseOrderWhateverOrderTheyArrivedIn() throws {
        let batch = try Self.batch(4)
        let notifications = batch.notifications
        #expect(batch.finish(notifications[2], outcome: .delivered, attempts: 1))
        #expect(
            batch.finish(
                notifications[0], outcome: .rejected(status: 410, reason: "Unregistered", unregisteredAt: nil),
                attempts: 1))
        #expect(batch.finish(notifications[3], outcome: .failed(attempts: 3, cause: "reset"), attempts: 3))
        let stranger = APNsNotification(
            deviceToken: notifications[0].deviceToken, payload: [], topic: "com.example.chat")
        #expect(!batch.finish(stranger, outcome: .delivered, attempts: 1), "not a notification of this batch")
        let completed = batch.completed()
        // The one without an answer is left out: its lease runs out and it is sent again, same apns-id.
        #expect(completed.map(\.delivery.id) == [1, 3, 4])
        #expect(completed.map(\.outcome.state) == [.rejected, .delivered, .failed])
        #expect(completed.map(\.attempts) == [1, 1, 3])
    }

    @Test func aStoredTokenOfTheWrongLengthIsNoToken() {
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 63)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 65)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 202)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 64))?.hex == String(repeating: "a", count: 64))
    }
}
