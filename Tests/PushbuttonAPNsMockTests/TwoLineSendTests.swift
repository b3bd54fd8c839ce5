import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// The common case as the DocC article shows it first: one alert with a category, naming two library types.
@Suite(.timeLimit(.minutes(2))) struct TwoLineSendTests {
    @Test func oneAlertWithACategoryIsSentInTwoLines() async throws {
        let fixture = try await MockFixture()
        let keyFile = fixture.directory + "/AuthKey_\(MockFixture.keyID).p8"
        try fixture.key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)

        let client = try APNsClient(
            environment: fixture.mock.environment, keyFile: keyFile, keyID: MockFixture.keyID,
            teamID: MockFixture.teamID)
        let result = await client.send(
            try APNsNotification(
                deviceToken: MockFixture.token(1),
                payload: .interactive(category: "reply", title: "Anna", body: "Lunch?"),
                topic: MockFixture.topic, priority: .immediately, expiration: .immediately))

        #expect(result.isDelivered, "\(result)")
        let recorded = try #require(fixture.mock.notifications.first)
        #expect(recorded.priority == 10 && recorded.expiration == 0 && recorded.topic == MockFixture.topic)
        #expect(recorded.typedPayload?.aps.category == "reply")
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aKeyFileThatCannotBeReadIsAKeyErrorSayingSo() throws {
        #expect {
            _ = try APNsClient(
                environment: .sandbox, keyFile: "/nonexistent/AuthKey.p8", keyID: "K", teamID: "T")
        } throws: { error in
            (error as? KeyError)?.code == .unreadableFile
                && (error as? KeyError)?.message.contains("/nonexistent/AuthKey.p8") == true
        }
    }
}
