import Foundation
import Pushbutton
import PushbuttonReceiver
import Testing

/// A display receipt's id is the device's and the notification's, never random, and it carries no content.
struct DisplayReceiptTests {
    static let token = String(repeating: "ab", count: 32)

    @Test func theIDIsDerivedFromTheTokenAndTheNotificationOnly() throws {
        var payload = Payload.interactive(category: "message", body: "Secret content")
        payload.actions = PayloadActions(extra: ["variant": "b"], notificationID: "n_1", campaignID: "c_1")
        let first = try #require(
            DisplayReceipt(payload: payload, token: Self.token, receivedAt: Date(timeIntervalSince1970: 1)))
        let again = try #require(
            DisplayReceipt(payload: payload, token: Self.token.uppercased(), receivedAt: Date(timeIntervalSince1970: 9))
        )
        #expect(first.eventID == again.eventID)
        #expect(first.eventID != DisplayReceipt.eventID(token: Self.token, notificationID: "n_2"))
        #expect(first.eventID.count == 36 && first.campaignID == "c_1" && first.variant == "b")
        let json = first.jsonValue
        #expect(json["notification"] == "n_1" && json["campaign"] == "c_1" && json["variant"] == "b")
        #expect(json["at"] == "1970-01-01T00:00:01.000Z")
        #expect(!String(decoding: JSONWriter.compact(json), as: UTF8.self).contains("Secret"))
        #expect(
            DisplayReceipt(
                payload: Payload.interactive(category: "m", body: "x"), token: Self.token, receivedAt: Date()) == nil)
    }
}
