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

    @Test func badInputGetsDiagnosticsAndQueuesNothing() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let token = F.token(1)
        let unknownCategory = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(token)"]}, "category": "mesage", "body": "Hi"}"#)
        #expect(unknownCategory.status == 422)
        let error = try #require(unknownCategory.json?.objectValue?["error"]?.objectValue)
        #expect(error["code"] == "invalid_request")
        let diagnostic = try #require(error["diagnostics"]?.arrayValue?.first?.objectValue)
        #expect(diagnostic["code"] == "unknown-category")
        #expect(diagnostic["path"] == "category")
        #expect(diagnostic["line"] == 1)
        #expect(diagnostic["hint"]?.stringValue?.contains("message") == true)

        let openFromBackground = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"tokens": ["\(token)"]}, "category": "message", "body": "Hi",
                 "buttons": {"like": [{"action": "pushbutton.open_url", "args": {"url": "https://example.com"}}]}}
                """)
        #expect(openFromBackground.status == 422)
        let codes = openFromBackground.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap
        {
            $0.objectValue?["code"]?.stringValue
        }
        #expect(codes?.contains("background-open") == true, "\(openFromBackground.body)")
        let paths = openFromBackground.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap
        {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(paths?.allSatisfy { $0.hasPrefix("buttons") } == true, "\(paths ?? [])")

        let badToken = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["abc"]}, "category": "message", "body": "Hi"}"#)
        #expect(badToken.status == 422)
        #expect(badToken.body.contains("to.tokens[0]"))
        let syntax = try await fixture.request("POST", "/v1/apps/chat/notifications", json: #"{"to": "#)
        #expect(syntax.status == 422)
        #expect(syntax.body.contains("json-syntax"))
        let unknownField = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "body": "Hi", "prority": 10}"#)
        #expect(unknownField.status == 422)
        #expect(unknownField.body.contains("priority"))
        let badLine = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: "{\"category\": \"message\", \"body\": \"Hi\"}\n{\"token\": \"\(token)\"}\n{\"tokn\": 1}\n")
        #expect(badLine.status == 422)
        #expect(
            badLine.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.first?.objectValue?["line"]
                == 3)
        #expect(try fixture.gateway.store.queueDepth() == 0)
        // A device with a bad body.
        let device = try await fixture.request(
            "PUT", "/v1/apps/chat/devices/\(token)", key: F.publishable, json: #"{"environment": "staging"}"#)
        #expect(device.status == 422)
        #expect(device.body.contains("environment"))
    }

    @Test func keysAreCheckedOnEveryRoute() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let body = #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#
        let routes: [(String, String)] = [
            ("POST", "/v1/apps/chat/notifications"), ("PUT", "/v1/apps/chat/devices/\(F.token(1))"),
            ("DELETE", "/v1/apps/chat/devices/\(F.token(1))"), ("GET", "/v1/notifications/n_x"),
            ("POST", "/v1/apps/chat/campaigns"), ("GET", "/v1/campaigns/c_x"), ("POST", "/v1/campaigns/c_x/cancel"),
            ("POST", "/v1/campaigns/c_x/recipients"), ("GET", "/metrics"), ("GET", "/v1/nothing"),
        ]
        for (method, path) in routes {
            let json = method == "GET" || method == "DELETE" ? nil : body
            #expect(try await fixture.request(method, path, key: nil, json: json).status == 401, "\(method) \(path)")
            #expect(try await fixture.request(method, path, key: "pb_sk_wrong", json: json).status == 401)
        }
        #expect(
            try await fixture.request("POST", "/v1/apps/chat/notifications", key: F.otherSecret, json: body).status
                == 403)
        #expect(
            try await fixture.request("PUT", "/v1/apps/chat/devices/\(F.token(1))", key: F.otherSecret).status == 403)
        #expect(
            try await fixture.request("POST", "/v1/apps/chat/notifications", key: F.publishable, json: body).status
                == 403)
        let sent = try await fixture.request("POST", "/v1/apps/chat/notifications", json: body)
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        #expect(try await fixture.request("GET", "/v1/notifications/\(id)", key: F.otherSecret).status == 403)
        #expect(try await fixture.request("GET", "/v1/notifications/\(id)").status == 200)
        #expect(try await fixture.request("GET", "/v1/notifications/\(id)", key: F.publishable).status == 403)
        #expect(try await fixture.request("GET", "/healthz", key: nil).status == 200)
        #expect(try await fixture.request("GET", "/readyz", key: nil).status == 200)
        #expect(try await fixture.request("PATCH", "/v1/apps/chat/notifications").status == 405)
    }

    @Test func anIdempotencyKeyMakesARetrySafe() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let body = #"{"to": {"tokens": ["\#(F.token(1))", "\#(F.token(2))"]}, "category": "message", "body": "Hi"}"#
        let first = try await fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body, headers: ["Idempotency-Key": "order-42"])
        let again = try await fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body, headers: ["Idempotency-Key": "order-42"])
        #expect(first.status == 202)
        #expect(again.status == 202)
        #expect(again.json?.objectValue?["id"] == first.json?.objectValue?["id"])
        #expect(again.json?.objectValue?["replayed"] == true)
        #expect(try fixture.gateway.store.queueDepth() == 2)
        let different = try await fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body.replacingOccurrences(of: "Hi", with: "Ho"),
            headers: ["Idempotency-Key": "order-42"])
        #expect(different.status == 409)
        // Another app's identical key is its own.
        let other = try await fixture.request(
            "POST", "/v1/apps/other/notifications", key: F.otherSecret, json: body,
            headers: ["Idempotency-Key": "order-42"])
        #expect(other.status == 202)
        #expect(other.json?.objectValue?["id"] != first.json?.objectValue?["id"])
    }

    @Test func campaignsTakeMorePagesAndCancel() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let header = #"{"category": "message", "body": "Hi {{name}}"}"#
        let lines = (1...3).map { #"{"token": "\#(F.token($0))", "data": {"name": "n\#($0)"}}"# }
        let created = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: ([header] + lines).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let page = (4...6).map { #"{"token": "\#(F.token($0))", "data": {"name": "n\#($0)"}}"# }.joined(separator: "\n")
        let appended = try await fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(appended.json?.objectValue?["recipients"] == 6, "\(appended.body)")
        let missingData = try await fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients", json: #"{"token": "\#(F.token(9))"}"#)
        #expect(missingData.status == 422)
        #expect(missingData.body.contains("name"))
        #expect(
            try await fixture.request("POST", "/v1/campaigns/\(id)/recipients", key: F.otherSecret, json: page).status
                == 403)
        let cancelled = try await fixture.request("POST", "/v1/campaigns/\(id)/cancel")
        #expect(cancelled.json?.objectValue?["state"] == "cancelled")
        #expect(cancelled.json?.objectValue?["counts"]?.objectValue?["cancelled"] == 6)
        #expect(try await fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page).status == 409)
        #expect(try fixture.gateway.store.queueDepth() == 0)
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
