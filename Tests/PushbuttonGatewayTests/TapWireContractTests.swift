import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// What a device's receiver reports for a tap is what the gateway's tap intake stores, field by field, and the
/// gateway's own rules (no unknown member, the token's shape) still answer with located diagnostics.
struct TapWireContractTests {
    static let delivered = Date(timeIntervalSince1970: 1_764_585_900)

    /// The event the device builds for a button tap on a campaign's variant, as `GatewayClient.report` does.
    static func deviceEvent(token: String = String(repeating: "AB", count: 32)) throws -> TapEvent {
        var payload = Payload.interactive(category: "message", body: "Lunch?")
        payload.actions = PayloadActions(extra: ["variant": "B"], notificationID: "n_1", campaignID: "c_1")
        let response = NotificationResponse(
            notification: DeliveredNotification(identifier: "apns-1", date: delivered, payload: payload),
            actionIdentifier: "reply", userText: "Yes")
        return try #require(
            TapEvent(
                response: response, situation: .foregroundButton, token: token,
                respondedAt: delivered.addingTimeInterval(2.5), includeReply: true))
    }

    @Test func theGatewayStoresExactlyWhatTheDeviceWrote() throws {
        let event = try Self.deviceEvent()
        #expect(event.variant == "B" && event.campaignID == "c_1" && event.latencyMilliseconds == 2500)
        let value = try JSONParser.parse(JSONWriter.compact(event.jsonValue))
        var diagnostics: [Diagnostic] = []
        let record = try #require(
            TapService.read(value, at: .root.appending("taps").appending(0), app: "chat", diagnostics: &diagnostics))
        #expect(diagnostics.isEmpty)
        var expected = event
        expected.token = event.token.lowercased()
        #expect(record == TapRecord(app: "chat", event: expected))
        #expect(record.variant == "B" && record.reply == "Yes" && record.button == "reply")
    }

    @Test func theGatewayStillRefusesUnknownMembersAndBadTokensWithPaths() throws {
        var object = try #require(try Self.deviceEvent(token: "abc").jsonValue.objectValue)
        object["colour"] = "red"
        object["button"] = .string(String(repeating: "x", count: TapService.maximumIdentifierLength + 1))
        var diagnostics: [Diagnostic] = []
        let path = JSONPath.root.appending("taps").appending(2)
        #expect(TapService.read(.object(object), at: path, app: "chat", diagnostics: &diagnostics) == nil)
        #expect(
            Set(diagnostics.map { "\($0.path) \($0.code)" }) == [
                "taps[2].colour unknown-key", "taps[2].token invalid-token", "taps[2].button value-range",
            ])
    }
}
