import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonStore
import Testing

/// Issue 16's "done means": the gateway on SQLite, the mock APNs, and two simulated phones with the gateway
/// client. The phones register, a campaign goes out, their users tap different buttons (one phone offline
/// until later), and the stats API reports the exact counts and rates, the late tap included once the phone
/// is back. A lost answer makes the outbox send a tap twice; the gateway counts it once.
@Suite(.timeLimit(.minutes(3)))
struct TapLoopEndToEndTests {
    typealias F = GatewayFixture

    @Test func phonesRegisterACampaignGoesOutAndEveryTapIsCountedOnceLateOnesToo() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        // Retries come quickly, so the test does not wait out the default one-second backoff.
        let options = OutboxOptions(baseBackoff: .milliseconds(20), maximumBackoff: .milliseconds(100))
        let anna = try await SimulatedPhone(
            token: F.token(1), fixture: fixture, directory: fixture.directory, outboxOptions: options)
        let ben = try await SimulatedPhone(
            token: F.token(2), fixture: fixture, directory: fixture.directory, outboxOptions: options)

        // Both phones register their tokens through their outboxes; a launch with nothing changed queues nothing.
        for phone in [anna, ben] {
            #expect(try await phone.client.register(token: phone.token, locale: "fr-FR", appVersion: "2.0"))
            #expect(try await !phone.client.register(token: phone.token, locale: "fr-FR", appVersion: "2.0"))
            #expect(try await phone.drain().delivered == 1)
            let device = try #require(try fixture.gateway.store.device(app: "chat", token: phone.token))
            #expect(device.registration.locale == "fr-FR")
            #expect(device.registration.appVersion == "2.0")
        }
        // An app update re-registers.
        #expect(try await ben.client.register(token: ben.token, locale: "fr-FR", appVersion: "2.1"))
        #expect(try await ben.drain().delivered == 1)
        #expect(try fixture.gateway.store.device(app: "chat", token: ben.token)?.registration.appVersion == "2.1")

        // A campaign to both phones.
        let campaign = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: """
                {"category": "message", "title": "Lunch", "body": "Pizza at noon?"}
                {"token": "\(anna.token)"}
                {"token": "\(ben.token)"}
                """)
        #expect(campaign.status == 202, "\(campaign.body)")
        let id = try #require(campaign.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        await fixture.mock.deliveriesSettled()

        // Anna likes it (a background button); her first delivery's answer is lost, so the outbox sends the
        // tap again, with the same event id.
        let annaNotification = try await anna.shown(containing: "Pizza")
        let annaTap = try await anna.center.tapButton(annaNotification, action: "like")
        #expect(annaTap.completion != .noHandler)
        let flaky = LostAnswerSender(over: anna.client.sender())
        let annaDrain = try await anna.drain(over: flaky)
        #expect(annaDrain.delivered == 1)
        #expect(annaDrain.retried == 1)
        #expect(flaky.attempts == 2)

        // Ben opens it (a foreground button) while offline: the tap waits in his outbox.
        let benNotification = try await ben.shown(containing: "Pizza")
        _ = try await ben.center.tapButton(benNotification, action: "open")
        let offline = try await ben.drain(over: OfflineSender(), untilEmpty: false)
        #expect(offline.delivered == 0)
        #expect(offline.retried == 1)
        #expect(try await ben.outbox.status().pending == 1)

        let before = try #require(try await stats(fixture, campaign: id))
        #expect(before["delivered"] == 2)
        #expect(before["responses"] == 1)
        #expect(before["response_rate"] == 0.5)
        #expect(
            before["buttons"]
                == [
                    ["button": "like", "taps": 1, "rate_of_deliveries": 0.5, "rate_of_responses": 1.0],
                    ["button": "open", "taps": 0, "rate_of_deliveries": 0.0, "rate_of_responses": 0.0],
                ])
        #expect(before["background"] == 1)
        #expect(before["foreground"] == 0)

        // Ben is back online: the late tap arrives, and the counts are exact.
        #expect(try await ben.drain().delivered == 1)
        let after = try #require(try await stats(fixture, campaign: id))
        #expect(after["app"] == "chat")
        #expect(after["campaign"]?.stringValue == id)
        #expect(after["category"] == "message")
        #expect(after["sent"] == 2)
        #expect(after["delivered"] == 2)
        #expect(after["rejected"] == 0)
        #expect(after["failed"] == 0)
        #expect(after["dead_tokens"] == 0)
        #expect(after["responses"] == 2)
        #expect(after["response_rate"] == 1.0)
        #expect(
            after["buttons"]
                == [
                    ["button": "like", "taps": 1, "rate_of_deliveries": 0.5, "rate_of_responses": 0.5],
                    ["button": "open", "taps": 1, "rate_of_deliveries": 0.5, "rate_of_responses": 0.5],
                ])
        #expect(after["body"] == 0)
        #expect(after["dismissals"] == .null)
        #expect(after["foreground"] == 1)
        #expect(after["background"] == 1)
        let timeToTap = try #require(after["time_to_tap_ms"]?.objectValue)
        let median = try #require(timeToTap["median"]?.doubleValue)
        let p90 = try #require(timeToTap["p90"]?.doubleValue)
        #expect(median >= 0 && p90 >= median)

        // The taps carried the campaign and the category, and the gateway stored each event once.
        let events = try #require(fixture.gateway.store as? any TapStore)
        #expect(try events.statistics(StatsQuery(app: "chat", scope: .notification(id))).responses == 2)
        let app = try #require(try await stats(fixture, campaign: nil))
        #expect(app["responses"] == 2)
        #expect(app["delivered"] == 2)
    }

    private func stats(_ fixture: GatewayFixture, campaign: String?) async throws -> [String: JSONValue]? {
        let query = campaign.map { "?campaign=\($0)" } ?? ""
        let (status, json, body) = try await fixture.request("GET", "/v1/apps/chat/stats\(query)")
        #expect(status == 200, "\(body)")
        return json?.objectValue
    }
}
