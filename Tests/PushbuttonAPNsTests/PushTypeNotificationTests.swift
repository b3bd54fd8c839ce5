import Foundation
import Pushbutton
import Testing

@testable import PushbuttonAPNs

/// The sender's checks of a notification's request before it is sent: each with the reason APNs would answer.
@Suite struct PushTypeNotificationTests {
    static let token = try! DeviceToken(String(repeating: "ab", count: 32))

    static func notification(
        topic: String = "com.example.app", pushType: PushType = .alert, priority: Int? = 10,
        payload: [UInt8] = Array(#"{"aps":{"alert":"x"}}"#.utf8), collapseID: String? = nil, expiration: Int64? = nil
    ) -> APNsNotification {
        APNsNotification(
            deviceToken: token, payload: payload, topic: topic, pushType: pushType, priority: priority,
            expiration: expiration, collapseID: collapseID)
    }

    @Test func theBundleIDInitializerAddsTheSuffix() {
        for type in PushType.known {
            let notification = APNsNotification(
                deviceToken: Self.token, payload: Payload(), bundleID: "com.example.app", pushType: type)
            #expect(notification.topic == "com.example.app" + (type.topicSuffix ?? ""))
        }
    }

    @Test func aValidRequestHasNoProblems() {
        #expect(Self.notification().requestProblems().isEmpty)
        #expect(Self.notification(topic: "com.example.app.voip", pushType: .voip).requestProblems().isEmpty)
        #expect(Self.notification(pushType: .background, priority: 5).requestProblems().isEmpty)
        #expect(Self.notification(pushType: .mdm, priority: nil).requestProblems().isEmpty)
    }

    @Test(arguments: [
        (notification(pushType: PushType(rawValue: "banner")), APNsReason.invalidPushType, "banner"),
        (notification(topic: ""), .missingTopic, "bundle id"),
        (notification(pushType: .voip), .deviceTokenNotForTopic, "'com.example.app.voip'"),
        (notification(topic: "com.example.app.voip"), .deviceTokenNotForTopic, "goes to 'com.example.app'"),
        (notification(topic: ".push-type.widgets", pushType: .widgets), .deviceTokenNotForTopic, "no bundle id"),
        (notification(pushType: .background), .badPriority, "use 5"),
        (notification(priority: 7), .badPriority, "10, 5, 1"),
        (notification(payload: []), .payloadEmpty, "{\"aps\":{}}"),
        (notification(payload: Array(repeating: 0x20, count: 4097)), .payloadTooLarge, "4096-byte"),
        (notification(collapseID: String(repeating: "c", count: 65)), .badCollapseId, "65 bytes"),
        (notification(expiration: -1), .badExpirationDate, "negative"),
    ])
    func eachProblemCarriesAPNsReasonAndTheFix(notification: APNsNotification, reason: APNsReason, words: String) {
        let problems = notification.requestProblems()
        #expect(problems.map(\.reason) == [reason], "\(problems)")
        #expect(problems.first?.message.contains(words) == true, "\(problems)")
        #expect(reason.isKnown)
    }

    @Test func voipAllowsFiveKilobytes() {
        let big = Array(repeating: UInt8(0x20), count: 5000)
        #expect(
            Self.notification(topic: "com.example.app.voip", pushType: .voip, payload: big).requestProblems().isEmpty)
        let over = Array(repeating: UInt8(0x20), count: 5121)
        #expect(
            Self.notification(topic: "com.example.app.voip", pushType: .voip, payload: over).requestProblems()
                .map(\.reason) == [.payloadTooLarge])
    }

    @Test func locationAndLiveActivitiesNeedTokenAuthentication() throws {
        let live = try APNsNotification.liveActivity(
            .update(contentState: [:], timestamp: Date()), deviceToken: Self.token.hex, bundleID: "com.example.app")
        #expect(live.topic == "com.example.app.push-type.liveactivity" && live.pushType == .liveactivity)
        #expect(live.priority == 10)
        #expect(live.requestProblems().isEmpty)
        #expect(live.requestProblems(tokenAuthentication: false).map(\.reason) == [.topicDisallowed])
        let location = Self.notification(topic: "com.example.app.location-query", pushType: .location)
        #expect(location.requestProblems(tokenAuthentication: false).map(\.reason) == [.topicDisallowed])
        #expect(
            Self.notification(topic: "com.example.app.voip", pushType: .voip).requestProblems(
                tokenAuthentication: false
            )
            .isEmpty)
    }

    @Test func checkThrowsTheFirstProblemAsAnInvalidRequest() {
        #expect(throws: Never.self) { try Self.notification().check() }
        #expect {
            try Self.notification(pushType: .voip, priority: 3).check()
        } throws: { error in
            let error = error as? APNsError
            return error?.kind == .invalidRequest && error?.message.contains("DeviceTokenNotForTopic") == true
        }
        #expect(throws: APNsError.self) {
            _ = try APNsNotification.liveActivity(
                .end(contentState: nil, timestamp: Date()), deviceToken: "not hex", bundleID: "com.example.app")
        }
    }
}
