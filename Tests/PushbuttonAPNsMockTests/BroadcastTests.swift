import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// Broadcasts to a channel end to end: ``APNsClient/send(_:)-(APNsBroadcast)`` against the mock.
@Suite(.timeLimit(.minutes(2))) struct BroadcastTests {
    static let bundleID = MockFixture.topic
    static let update = #"{"aps":{"timestamp":1733000000,"event":"update","content-state":{"score":"2-1"}}}"#

    @Test func aBroadcastReachesItsChannelAsAppleDescribesIt() async throws {
        let fixture = try await MockFixture()
        let channel = try #require(fixture.mock.channels.add(bundleID: Self.bundleID, messageStoragePolicy: 1))
        let client = try fixture.client()
        let id = UUID()
        let result = await client.send(
            APNsBroadcast(
                bundleID: Self.bundleID, channelID: channel.id, payload: Array(Self.update.utf8), priority: 5,
                expiration: 0, requestID: id))
        #expect(result == .delivered(apnsID: id, uniqueID: nil), "\(result)")
        let recorded = try #require(fixture.mock.broadcasts.first)
        #expect(recorded.requestID == id.uuidString.lowercased() && recorded.channelID == channel.id)
        #expect(recorded.bundleID == Self.bundleID && recorded.priority == 5 && recorded.expiration == 0)
        #expect(recorded.typedPayload != nil && recorded.payloadText == Self.update)
        // A broadcast is not a device notification.
        #expect(fixture.mock.notifications.isEmpty)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aTypedPayloadAndAChannelCreatedThroughTheAPI() async throws {
        let fixture = try await MockFixture()
        let keyFile = fixture.directory + "/AuthKey_\(MockFixture.keyID).p8"
        try fixture.key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        let channels = try APNsChannels(
            environment: fixture.mock.environment, keyFile: keyFile, keyID: MockFixture.keyID,
            teamID: MockFixture.teamID)
        let channel = try await channels.create(bundleID: Self.bundleID)
        let client = try APNsClient(
            environment: fixture.mock.environment, keyFile: keyFile, keyID: MockFixture.keyID,
            teamID: MockFixture.teamID)
        let payload = try #require(Payload.parse(Array(Self.update.utf8)).payload)
        let result = await client.send(
            APNsBroadcast(bundleID: Self.bundleID, channelID: channel.id, payload: payload, priority: .immediately))
        #expect(result.isDelivered, "\(result)")
        #expect(fixture.mock.broadcasts.first?.priority == 10)
        await client.shutdown()
        await channels.shutdown()
        await fixture.stop()
    }

    @Test func aDeletedChannelIsRejectedAsGone() async throws {
        let fixture = try await MockFixture()
        let channel = try #require(fixture.mock.channels.add(bundleID: Self.bundleID))
        fixture.mock.channels.remove(bundleID: Self.bundleID, id: channel.id)
        let client = try fixture.client()
        let result = await client.send(
            APNsBroadcast(bundleID: Self.bundleID, channelID: channel.id, payload: Array(Self.update.utf8)))
        guard case .rejected(_, 410, let reason, nil) = result else {
            Issue.record("expected 410 ChannelNotRegistered, got \(result)")
            return
        }
        #expect(reason == .channelNotRegistered && reason.channelIsGone)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func whatAPNsWouldRefuseFailsBeforeARequest() async throws {
        let fixture = try await MockFixture()
        let client = try fixture.client()
        let payload = Array(Self.update.utf8)
        let broadcasts = [
            APNsBroadcast(bundleID: Self.bundleID, channelID: "YWJj", payload: payload, priority: 7),
            APNsBroadcast(bundleID: Self.bundleID, channelID: "not base64", payload: payload),
            APNsBroadcast(bundleID: "com/example", channelID: "YWJj", payload: payload),
            APNsBroadcast(bundleID: Self.bundleID, channelID: "YWJj", payload: []),
            APNsBroadcast(bundleID: Self.bundleID, channelID: "YWJj", payload: payload, expiration: -1),
            APNsBroadcast(
                bundleID: Self.bundleID, channelID: "YWJj",
                payload: Array(#"{"aps":{"event":"update"},"x":"\#(String(repeating: "x", count: 5120))"}"#.utf8)),
        ]
        for broadcast in broadcasts {
            let result = await client.send(broadcast)
            guard case .failed(_, 0, let cause) = result else {
                Issue.record("expected a failure before sending, got \(result)")
                continue
            }
            #expect(cause.kind == .invalidRequest, "\(cause)")
        }
        #expect(fixture.mock.counters.requests == 0)
        await client.shutdown()
        await fixture.stop()
    }

    @Test func theMockChecksBroadcastHeadersInAPNsOrder() async throws {
        let fixture = try await MockFixture()
        let channel = try #require(fixture.mock.channels.add(bundleID: Self.bundleID))
        let path = "/4/broadcasts/apps/\(Self.bundleID)"
        let good: [(name: String, value: String)] = [
            ("apns-channel-id", channel.id), ("apns-push-type", "liveactivity"),
        ]
        let cases: [(String, [(name: String, value: String)], String, Int, String?)] = [
            (path, [("apns-push-type", "liveactivity")], Self.update, 400, "MissingChannelId"),
            (path, [("apns-channel-id", channel.id)], Self.update, 400, "MissingPushType"),
            (
                path, [("apns-channel-id", channel.id), ("apns-push-type", "alert")], Self.update, 400,
                "InvalidPushType"
            ),
            (path, good + [("apns-expiration", "soon")], Self.update, 400, "BadExpirationDate"),
            (path, good + [("apns-priority", "7")], Self.update, 400, "BadPriority"),
            (
                path, [("apns-channel-id", "YWJjZA=="), ("apns-push-type", "liveactivity")], Self.update, 410,
                "ChannelNotRegistered"
            ),
            (path, good, "", 400, "PayloadEmpty"),
            (path, good, #"{"x":"\#(String(repeating: "x", count: 5200))"}"#, 413, "PayloadTooLarge"),
            (path, good, "[1]", 400, "BadPayload"),
            (path + "/extra", good, Self.update, 404, "BadPath"),
            (path, good + [("apns-priority", "1")], Self.update, 200, nil),
        ]
        for (path, headers, body, status, reason) in cases {
            let answer = try await ChannelManagementTests.raw(
                fixture, method: "POST", path: path, headers: headers, body: body)
            #expect(answer.status == status && answer.reason == reason, "\(headers) \(body.prefix(40)): \(answer)")
        }
        #expect(fixture.mock.broadcasts.count == 1)
        await fixture.stop()
    }

    @Test func headersAreTheOnesAppleLists() {
        let id = UUID(uuidString: "8F0A0F5E-2B36-4E6A-9C77-2D6E5C1B2A10")!
        let broadcast = APNsBroadcast(
            bundleID: "com.example.app", channelID: "YWJj", payload: [0x7B, 0x7D], priority: 1, expiration: 0,
            requestID: id)
        #expect(broadcast.path == "/4/broadcasts/apps/com.example.app")
        let headers = Dictionary(uniqueKeysWithValues: broadcast.headers(token: nil).map { ($0.name, $0.value) })
        #expect(
            headers == [
                "apns-channel-id": "YWJj", "apns-push-type": "liveactivity",
                "apns-request-id": "8f0a0f5e-2b36-4e6a-9c77-2d6e5c1b2a10", "apns-priority": "1", "apns-expiration": "0",
            ])
        #expect(broadcast.problem == nil)
    }
}
