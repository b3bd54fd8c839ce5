import Foundation
import PushbuttonAPNs
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// A leased batch as the sender's direct path reads it: handed out in lease order, each outcome kept by
/// apns-id wherever it arrives, the recorded batch back in lease order.
struct WorkerBatchTests {
    /// A batch of `count` rows, and the notifications it was given.
    static func batch(_ count: Int) throws -> (WorkerBatch, [APNsNotification]) {
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
        return (WorkerBatch(deliveries: deliveries, notifications: notifications), notifications)
    }

    @Test func handsOutEveryNotificationOnceInOrderThenFinishes() throws {
        let (batch, notifications) = try Self.batch(3)
        var polled: [UUID] = []
        while case .notification(let notification) = batch.poll() { polled.append(notification.apnsID) }
        #expect(polled == notifications.map(\.apnsID))
        guard case .finished = batch.poll() else {
            Issue.record("a drained batch must say it is finished")
            return
        }
    }

    @Test func outcomesComeBackInLeaseOrderWhateverOrderTheyArrivedIn() throws {
        let (batch, notifications) = try Self.batch(4)
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

    @Test func aRowWithoutANotificationIsNeitherHandedOutNorRecorded() throws {
        let (full, notifications) = try Self.batch(3)
        let batch = WorkerBatch(
            deliveries: full.deliveries, notifications: [notifications[0], nil, notifications[2]])
        var polled: [UUID] = []
        while case .notification(let notification) = batch.poll() { polled.append(notification.apnsID) }
        #expect(polled == [notifications[0].apnsID, notifications[2].apnsID])
        #expect(!batch.finish(notifications[1], outcome: .delivered, attempts: 1), "not handed out")
        #expect(batch.finish(notifications[2], outcome: .delivered, attempts: 1))
        #expect(batch.completed().map(\.delivery.id) == [3])
    }

    @Test func outcomesAreCountedOnceAndAddedToTheMetricsPerBatch() throws {
        let (batch, notifications) = try Self.batch(4)
        #expect(batch.finish(notifications[0], outcome: .delivered, attempts: 1, latency: 0.002))
        #expect(batch.finish(notifications[1], outcome: .delivered, attempts: 2, latency: 0.02))
        #expect(!batch.finish(notifications[1], outcome: .delivered, attempts: 2, latency: 0.02), "counted once")
        #expect(
            batch.finish(
                notifications[2], outcome: .rejected(status: 400, reason: "BadDeviceToken", unregisteredAt: nil),
                attempts: 1, latency: 0.2))
        #expect(batch.finish(notifications[3], outcome: .failed(attempts: 3, cause: "reset"), attempts: 3, latency: 20))
        let tally = batch.tally
        #expect(tally.count == 4)
        #expect(tally.delivered == 2 && tally.failed == 1 && tally.rejected == ["BadDeviceToken": 1])
        let metrics = GatewayMetrics()
        metrics.sent("chat", tally)
        metrics.sent("chat", SentTally())
        let text = metrics.render(queueDepth: nil)
        for line in [
            #"pushbutton_notifications_sent_total{app="chat"} 4"#,
            #"pushbutton_notifications_delivered_total{app="chat"} 2"#,
            #"pushbutton_notifications_rejected_total{app="chat",reason="BadDeviceToken"} 1"#,
            #"pushbutton_notifications_failed_total{app="chat"} 1"#,
            #"pushbutton_apns_latency_seconds_bucket{le="0.0025"} 1"#,
            #"pushbutton_apns_latency_seconds_bucket{le="0.025"} 2"#,
            #"pushbutton_apns_latency_seconds_bucket{le="0.25"} 3"#,
            #"pushbutton_apns_latency_seconds_bucket{le="10.0"} 3"#,
            #"pushbutton_apns_latency_seconds_bucket{le="+Inf"} 4"#,
            "pushbutton_apns_latency_seconds_count 4",
        ] {
            #expect(text.contains(line + "\n"), "\(line)")
        }
        #expect(metrics.deliveredTotal == 2)
    }

    /// The attempts that may have reached APNs without settling their recipient (a timeout on a black-holed
    /// connection): what bounds APNs' repeats of an apns-id in `make chaos`.
    @Test func attemptsThatDidNotSettleARecipientAreCountedAsInconclusive() throws {
        let (batch, notifications) = try Self.batch(5)
        #expect(batch.finish(notifications[0], outcome: .delivered, attempts: 1))
        #expect(batch.finish(notifications[1], outcome: .delivered, attempts: 3), "2 before the answered one")
        #expect(batch.finish(notifications[2], outcome: .failed(attempts: 2, cause: "timeout"), attempts: 2))
        batch.hold(notifications[3], attempts: 1)  // timed out, then its connection could not be made again
        batch.countUnreachable(attempts: 2)  // expired while held, after 2 that went out
        #expect(batch.finish(notifications[4], outcome: .failed(attempts: 0, cause: "expired"), attempts: 0))
        #expect(batch.tally.inconclusive == 2 + 2 + 1 + 2)
        #expect(batch.unreachable == 2)
        let metrics = GatewayMetrics()
        metrics.sent("chat", batch.tally)
        var held = SentTally()
        held.inconclusive = 3  // a batch all held: no outcome, still counted
        metrics.sent("chat", held)
        #expect(
            metrics.render(queueDepth: nil).contains(
                #"pushbutton_apns_attempts_inconclusive_total{app="chat"} 10"# + "\n"))
    }

    @Test func aStoredTokenOfTheWrongLengthIsNoToken() {
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 63)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 65)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 202)) == nil)
        #expect(DeviceToken(storedHex: String(repeating: "a", count: 64))?.hex == String(repeating: "a", count: 64))
    }
}
