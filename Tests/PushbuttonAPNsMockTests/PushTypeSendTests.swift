import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// Every push type and a Live Activity's start, update and end, sent by the real sender over HTTP/2 to the mock.
@Suite(.timeLimit(.minutes(2))) struct PushTypeSendTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func payload(for type: PushType) -> Payload {
        switch type {
        case .background:
            var payload = Payload()
            payload.aps.contentAvailable = true
            return payload
        case .widgets, .controls: return .contentChanged()
        case .mdm: return .mdm(pushMagic: "8D3C-magic")
        case .liveactivity: return .liveActivity(.update(contentState: ["minutes": 4], timestamp: now))
        default: return .interactive(category: "reply", body: "x")
        }
    }

    @Test func eachPushTypeIsDeliveredToItsTopicAndRejectedAtTheWrongOne() async throws {
        let fixture = try await MockFixture(topics: [MockFixture.topic, "com.apple.mgmt.External.1234"])
        let client = try fixture.client()
        for type in PushType.known {
            let priority: APNsPriority = type == .background ? .consideringDevicePower : .immediately
            let bundleID = type == .mdm ? "com.apple.mgmt.External.1234" : MockFixture.topic
            let notification = APNsNotification(
                deviceToken: try DeviceToken(MockFixture.token(1)), payload: Self.payload(for: type),
                bundleID: bundleID, pushType: type, priority: priority)
            #expect(notification.requestProblems().isEmpty, "\(type): \(notification.requestProblems())")
            let result = await client.send(notification)
            #expect(result.isDelivered, "\(type): \(result)")
            guard type.topicSuffix != nil else { continue }
            var wrong = notification
            wrong.topic = MockFixture.topic
            wrong.apnsID = APNsNotification.newID()
            #expect(wrong.requestProblems().map(\.reason) == [.deviceTokenNotForTopic])
            let rejected = await client.send(wrong)
            guard case .rejected(_, 400, let reason, _) = rejected else {
                Issue.record("\(type): \(rejected)")
                continue
            }
            #expect(reason == .deviceTokenNotForTopic, "\(type)")
        }
        let recorded = fixture.mock.notifications
        #expect(recorded.count == PushType.known.count)
        #expect(Set(recorded.compactMap(\.pushType)) == Set(PushType.known.map(\.rawValue)))
        #expect(recorded.contains { $0.topic == "com.example.app.push-type.controls" && $0.pushType == "controls" })
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aLiveActivityIsStartedUpdatedAndEndedInTwoLinesEach() async throws {
        let fixture = try await MockFixture()
        let client = try fixture.client()
        let token = MockFixture.token(7)
        let start = LiveActivityPush.start(
            attributesType: "DeliveryAttributes", attributes: ["order": 42], contentState: ["minutes": 12],
            alert: AlertContent(title: "On its way", body: "12 minutes"), timestamp: Self.now)
        let update = LiveActivityPush.update(contentState: ["minutes": 4], timestamp: Self.now + 480)
        let end = LiveActivityPush.end(
            contentState: ["minutes": 0], timestamp: Self.now + 720, dismissalDate: Self.now + 780)
        for push in [start, update, end] {
            let result = await client.send(try .liveActivity(push, deviceToken: token, bundleID: MockFixture.topic))
            #expect(result.isDelivered, "\(push.event): \(result)")
        }
        let recorded = fixture.mock.notifications
        #expect(recorded.map(\.topic) == Array(repeating: "com.example.app.push-type.liveactivity", count: 3))
        #expect(recorded.map(\.pushType) == ["liveactivity", "liveactivity", "liveactivity"])
        #expect(recorded.compactMap(\.typedPayload?.aps.liveActivity.event) == ["start", "update", "end"])
        #expect(recorded.first?.typedPayload?.aps.inputPushToken == true)
        #expect(recorded.last?.typedPayload?.aps.liveActivity.dismissalDate == 1_800_000_780)
        await client.shutdown()
        await fixture.stop()
    }
}
