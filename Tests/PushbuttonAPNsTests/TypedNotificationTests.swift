import Foundation
import Pushbutton
import Testing

@testable import PushbuttonAPNs

/// `APNsNotification` from a `Payload` with typed priority and expiration is the long form, written for you.
@Suite struct TypedNotificationTests {
    static let hex = String(repeating: "ab", count: 32)

    @Test func aPayloadNotificationHasTheLongFormsBytesAndHeaders() throws {
        let payload = Payload.interactive(category: "message", title: "Anna", body: "Lunch?")
        let id = APNsNotification.newID()
        let typed = try APNsNotification(
            deviceToken: Self.hex, payload: payload, topic: "com.example.app", priority: .consideringDevicePower,
            expiration: .at(Date(timeIntervalSince1970: 1_800_000_000.75)), collapseID: "c", apnsID: id)
        let long = APNsNotification(
            deviceToken: try DeviceToken(Self.hex), payload: PayloadWriter.encode(payload), topic: "com.example.app",
            priority: 5, expiration: 1_800_000_000, collapseID: "c", apnsID: id)
        #expect(typed == long)
    }

    @Test func priorityAndExpirationAreTheHeadersNumbers() {
        #expect(APNsPriority.immediately.rawValue == 10)
        #expect(APNsPriority.consideringDevicePower.rawValue == 5)
        #expect(APNsPriority.low.rawValue == 1)
        #expect(APNsExpiration.immediately.epochSeconds == 0)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(APNsExpiration.after(.seconds(3600), from: now).epochSeconds == 1_800_003_600)
    }

    @Test func aTokenThatIsNotHexIsAnInvalidDeviceToken() {
        #expect {
            _ = try APNsNotification(deviceToken: "not a token", payload: Payload(), topic: "t")
        } throws: { error in
            (error as? APNsError)?.kind == .invalidDeviceToken
        }
    }

    @Test func keyErrorsCarryACodeToBranchOn() {
        #expect {
            _ = try P256PrivateKey(pem: "not a key")
        } throws: { error in
            (error as? KeyError)?.code == .notPEM
        }
    }
}
