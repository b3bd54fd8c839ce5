import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonStore
import Testing

/// The issue's first "done means": devices register, a notification and a campaign go out, the mock APNs
/// receives them with the right headers and payloads, outcomes are readable over the API, and a 410
/// deactivates the device and fires the signed webhook.
@Suite(.timeLimit(.minutes(3)))
struct GatewayEndToEndTests {
    typealias F = GatewayFixture

    @Test func devicesNotificationsCampaignsAndADeadToken() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let alive = F.token(1)
        let second = F.token(2)
        let dead = F.token(3)
        fixture.mock.registry.register(token: alive, topic: F.topic)
        fixture.mock.registry.register(token: second, topic: F.topic)
        fixture.mock.registry.unregister(token: dead, at: Date(timeIntervalSince1970: 1_900_000_000))

        // Devices register with the publishable key.
        for (token, user) in [(alive, "u1"), (second, "u2"), (dead, "u3")] {
            let (status, json, body) = try await fixture.request(
                "PUT", "/v1/apps/chat/devices/\(token)", key: F.publishable,
                json:
                    #"{"environment": "production", "locale": "fr-FR", "app_version": "2.0", "user_id": "\#(user)", "tags": ["beta"]}"#
            )
            #expect(status == 200, "\(body)")
            #expect(json?.objectValue?["active"] == true)
        }

        // A notification with buttons, to a token.
        let (status, json, body) = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"tokens": ["\(alive)"]}, "category": "message", "title": "Anna", "body": "Lunch?",
                 "buttons": {"like": [{"action": "pushbutton.callback", "args": {"url": "https://api.example.com/like"}}]},
                 "action_args": {"message": 42}, "priority": 10, "collapse_id": "anna"}
                """)
        #expect(status == 202, "\(body)")
        let id = try #require(json?.objectValue?["id"]?.stringValue)
        let settled = try await fixture.settled(id)
        let delivery = try #require(settled.objectValue?["deliveries"]?.arrayValue?.first?.objectValue)
        #expect(delivery["state"] == "delivered")
        #expect(delivery["status"] == 200)
        let apnsID = try #require(delivery["apns_id"]?.stringValue)
        let recorded = try #require(fixture.mock.notifications.first { $0.apnsID.lowercased() == apnsID })
        #expect(recorded.topic == F.topic)
        #expect(recorded.pushType == "alert")
        #expect(recorded.priority == 10)
        #expect(recorded.collapseID == "anna")
        let payload = try #require(try JSONParser.parse(recorded.payload).objectValue)
        #expect(payload["aps"]?.objectValue?["category"] == "message")
        #expect(payload["aps"]?.objectValue?["alert"]?.objectValue?["title"] == "Anna")
        #expect(payload["action_args"]?.objectValue?["message"] == 42)
        let actions = try #require(payload["pushbutton"]?.objectValue)
        #expect(actions["id"]?.stringValue == id)
        #expect(actions["v"] == 1)
        #expect(actions["campaign"] == nil, "not part of a campaign: the campaign id is omitted")
        #expect(actions["buttons"]?.objectValue?["like"] != nil)

        // To a user: resolved to that user's active devices.
        let toUser = try await fixture.request(
            "POST", "/v1/apps/chat/notifications", json: #"{"to": {"user": "u2"}, "category": "message", "body": "Hi"}"#
        )
        #expect(toUser.status == 202, "\(toUser.body)")
        let userRecord = try await fixture.settled(try #require(toUser.json?.objectValue?["id"]?.stringValue))
        #expect(userRecord.objectValue?["deliveries"]?.arrayValue?.first?.objectValue?["token"]?.stringValue == second)

        // The dead token: 410, the device goes inactive with APNs' timestamp, the webhook hears of it.
        let toDead = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(dead)"]}, "category": "message", "body": "Still there?"}"#)
        let deadRecord = try await fixture.settled(try #require(toDead.json?.objectValue?["id"]?.stringValue))
        let deadDelivery = try #require(deadRecord.objectValue?["deliveries"]?.arrayValue?.first?.objectValue)
        #expect(deadDelivery["state"] == "rejected")
        #expect(deadDelivery["status"] == 410)
        #expect(deadDelivery["reason"] == "Unregistered")
        #expect(deadDelivery["unregistered_at"] == .integer(1_900_000_000_000))
        let device = try #require(try fixture.gateway.store.device(app: "chat", token: dead))
        #expect(!device.active)
        #expect(device.inactiveSince == Date(timeIntervalSince1970: 1_900_000_000))
        #expect(await fixture.webhook.wait(for: 1))
        let event = try #require(fixture.webhook.events.first)
        #expect(WebhookSignature.verify(event.signature ?? "", secret: F.webhookSecret, body: event.body))
        #expect(!WebhookSignature.verify(event.signature ?? "", secret: "another-secret-123456", body: event.body))
        let eventJSON = try #require(try JSONParser.parse(event.body).objectValue)
        #expect(eventJSON["type"] == "device.unregistered")
        #expect(eventJSON["token"]?.stringValue == dead)
        #expect(eventJSON["unregistered_at"] == .integer(1_900_000_000_000))
        #expect(event.idempotencyKey == "device.unregistered:\(deadDelivery["apns_id"]?.stringValue ?? "")")

        // A campaign: per-recipient template data; the dead device is skipped, not sent.
        let campaignBody = """
            {"category": "message", "title": "Hello {{name}}", "body": "Your order {{order}} shipped", "data": {"order": "-"}}
            {"token": "\(alive)", "data": {"name": "Anna", "order": "A-1"}}
            {"user": "u2", "data": {"name": "Ben"}}
            {"token": "\(dead)", "data": {"name": "Dead"}}
            """
        let campaign = try await fixture.request("POST", "/v1/apps/chat/campaigns", json: campaignBody)
        #expect(campaign.status == 202, "\(campaign.body)")
        let campaignID = try #require(campaign.json?.objectValue?["id"]?.stringValue)
        #expect(campaign.json?.objectValue?["recipients"] == 3)
        let campaignRecord = try await fixture.settled(campaignID)
        #expect(campaignRecord.objectValue?["counts"]?.objectValue?["delivered"] == 2)
        #expect(campaignRecord.objectValue?["counts"]?.objectValue?["skipped"] == 1)
        let progress = try await fixture.request("GET", "/v1/campaigns/\(campaignID)")
        #expect(progress.json?.objectValue?["finished"] == 3)
        let anna = try #require(
            fixture.mock.notifications.first { $0.payloadText.contains("Hello Anna") })
        #expect(anna.payloadText.contains("Your order A-1 shipped"))
        #expect(anna.payloadText.contains(#""campaign":"\#(campaignID)""#))
        let ben = try #require(fixture.mock.notifications.first { $0.payloadText.contains("Hello Ben") })
        #expect(ben.deviceToken.lowercased() == second)
        #expect(ben.payloadText.contains("Your order - shipped"))

        // Every apns-id was accepted once.
        #expect(fixture.mock.counters.duplicateAcceptances == 0)
        let metrics = try await fixture.request("GET", "/metrics")
        #expect(metrics.body.contains(#"pushbutton_notifications_delivered_total{app="chat"} 4"#))
        #expect(metrics.body.contains(#"pushbutton_notifications_rejected_total{app="chat",reason="Unregistered"} 1"#))
        #expect(metrics.body.contains("pushbutton_queue_depth 0"))
        #expect(
            metrics.body.contains(
                #"pushbutton_http_requests_total{route="POST /v1/apps/{app}/notifications",status="202"} 3"#))
    }

    @Test func theWebhookIsRetriedUntilAcknowledgedWithTheSameKey() async throws {
        let fixture = try await GatewayFixture(failingWebhooks: 2)
        defer { Task { await fixture.stop() } }
        let dead = F.token(7)
        fixture.mock.registry.unregister(token: dead)
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(dead)"]}, "category": "message", "body": "Hi"}"#)
        _ = try await fixture.settled(try #require(sent.json?.objectValue?["id"]?.stringValue))
        #expect(await fixture.webhook.wait(for: 1))
        #expect(fixture.webhook.attempts == 3)
        let event = try #require(fixture.webhook.events.first)
        #expect(event.idempotencyKey?.hasPrefix("device.unregistered:") == true)
        #expect(WebhookSignature.verify(event.signature ?? "", secret: F.webhookSecret, body: event.body))
    }
}
