import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

/// The device's gateway client, against a scripted sender: what it queues, when, with which key and body.
struct GatewayClientTests {
    static let token = String(repeating: "0a", count: 32)
    static let connection = GatewayConnection(
        baseURL: "https://push.example.com/", app: "chat", publishableKey: "pb_pk_test")

    func client(_ fixture: Fixture, connection: GatewayConnection = connection) throws -> GatewayClient {
        let time = fixture.time
        return try GatewayClient(
            connection: connection, outbox: try fixture.outbox(), now: { time.withLock { $0 } })
    }

    static func response(
        action: String, text: String? = nil, id: String? = "c_1", campaign: String? = "c_1", delivered: Date
    ) -> NotificationResponse {
        var payload = Payload.interactive(category: "message", body: "Lunch?")
        if id != nil || campaign != nil { payload.actions = PayloadActions(notificationID: id, campaignID: campaign) }
        return NotificationResponse(
            notification: DeliveredNotification(identifier: "apns-1", date: delivered, payload: payload),
            actionIdentifier: action, userText: text)
    }

    @Test func registersOnceUntilTheTokenLocaleOrVersionChangesAndRemembersAcrossLaunches() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let client = try client(fixture)
        #expect(
            try await client.register(
                deviceToken: Data(repeating: 0x0a, count: 32), locale: "fr-FR", appVersion: "2.0",
                timeZone: "Europe/Paris"))
        #expect(
            try await !client.register(token: Self.token, locale: "fr-FR", appVersion: "2.0", timeZone: "Europe/Paris"))
        let sender = ScriptedSender([])
        _ = try await client.outbox.drain(sender: client.sender(over: sender))
        let put = try #require(sender.received.withLock { $0.first })
        #expect(put.method == "PUT")
        #expect(put.url == "https://push.example.com/v1/apps/chat/devices/\(Self.token)")
        #expect(put.headers["Authorization"] == "Bearer pb_pk_test")
        let body = try JSONParser.parse(Array(try #require(put.body)))
        #expect(
            body == [
                "environment": "production", "locale": "fr-FR", "app_version": "2.0", "tags": [],
                "registered_at": 1_800_000_000_000, "time_zone": "Europe/Paris",
            ])
        // The key is added as the request goes out, never stored in the outbox.
        let stored = try await client.outbox.query("SELECT url, body FROM outbox")
        #expect(!stored.description.contains("pb_pk_test"))
        let state = try FileManager.default.attributesOfItem(atPath: client.statePath)
        #expect((state[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // The next launch reads what was registered: the same registration queues nothing, a new locale does.
        fixture.advance(60)
        let relaunched = try self.client(fixture)
        #expect(await relaunched.deviceToken == Self.token)
        #expect(
            try await !relaunched.register(
                token: Self.token, locale: "fr-FR", appVersion: "2.0", timeZone: "Europe/Paris"))
        // A device that moved to another zone registers again (local-time sends follow it).
        #expect(
            try await relaunched.register(
                token: Self.token, locale: "fr-FR", appVersion: "2.0", timeZone: "America/New_York"))
        #expect(try await relaunched.register(token: Self.token, locale: "de-DE", appVersion: "2.0"))
        #expect(try await relaunched.register(token: Self.token, locale: "de-DE", appVersion: "2.1"))
        #expect(
            try await relaunched.register(token: String(repeating: "0b", count: 32), locale: "de-DE", appVersion: "2.1")
        )
        #expect(try await relaunched.outbox.status().pending == 4)
        await #expect(throws: GatewayClientError.self) { try await relaunched.register(token: "xyz") }
    }

    @Test func aResponseBecomesATapEventWithTheReplyOnlyWhenTheAppOptsIn() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let client = try client(fixture)
        let delivered = fixture.time.withLock { $0 }
        // Before a token is registered, a tap cannot say which device it is from.
        await #expect(throws: GatewayClientError.notRegistered) {
            try await client.report(Self.response(action: "like", delivered: delivered), situation: .backgroundButton)
        }
        try await client.register(token: Self.token)
        fixture.advance(2.5)
        let reply = Self.response(action: "reply", text: "On my way", delivered: delivered)
        let event = try #require(try await client.report(reply, situation: .backgroundButton))
        #expect(event.response == .button)
        #expect(event.button == "reply")
        #expect(event.notificationID == "c_1")
        #expect(event.campaignID == "c_1")
        #expect(event.category == "message")
        #expect(!event.foreground)
        #expect(event.latencyMilliseconds == 2500)
        #expect(event.reply == nil)
        // The same response again is the same event: the outbox keeps one.
        #expect(try await client.report(reply, situation: .backgroundButton)?.eventID == event.eventID)
        #expect(try await client.outbox.status().pending == 2)

        let body = try #require(
            try await client.report(
                Self.response(action: SystemIdentifiers.defaultAction, delivered: delivered), situation: .bodyTap))
        #expect(body.response == .body)
        #expect(body.button == nil)
        #expect(body.foreground)
        #expect(body.eventID != event.eventID)
        // A notification the gateway did not send carries no id: nothing is reported.
        #expect(
            try await client.report(
                Self.response(action: "like", id: nil, campaign: nil, delivered: delivered),
                situation: .backgroundButton)
                == nil)

        let sender = ScriptedSender([])
        _ = try await client.outbox.drain(sender: client.sender(over: sender))
        let taps = sender.received.withLock { $0 }.filter { $0.url.hasSuffix("/taps") }
        #expect(taps.count == 2)
        #expect(taps.first?.headers["Idempotency-Key"] == "tap:" + event.eventID)
        let first = try JSONParser.parse(Array(try #require(taps.first?.body)))
        #expect(
            first == [
                "taps": [
                    [
                        "event_id": .string(event.eventID), "token": .string(Self.token), "notification": "c_1",
                        "campaign": "c_1", "category": "message", "response": "button", "button": "reply",
                        "foreground": false, "latency_ms": 2500, "at": "2027-01-15T08:00:02.500Z",
                    ]
                ]
            ])

        // With the opt-in, the typed text goes along.
        var optedIn = Self.connection
        optedIn.reportsReplies = true
        let other = try Fixture()
        defer { other.remove() }
        let replying = try self.client(other, connection: optedIn)
        try await replying.register(token: Self.token)
        #expect(try await replying.report(reply, situation: .backgroundButton)?.reply == "On my way")
    }

    @Test func aRegistrationTheGatewayRefusedIsQueuedAgainOnTheNextLaunch() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let client = try client(fixture)
        #expect(try await client.register(token: Self.token, locale: "fr-FR", appVersion: "2.0"))
        // A wrong publishable key: 401, final, dead-lettered.
        let refused = try await client.outbox.drain(sender: client.sender(over: ScriptedSender([401])))
        #expect(refused.deadLettered == 1)
        fixture.advance(60)
        let relaunched = try self.client(fixture)
        #expect(try await relaunched.register(token: Self.token, locale: "fr-FR", appVersion: "2.0"))
        #expect(try await relaunched.outbox.status().dead == 0)
        let sender = ScriptedSender([])
        #expect(try await relaunched.outbox.drain(sender: relaunched.sender(over: sender)).delivered == 1)
        #expect(try await !relaunched.register(token: Self.token, locale: "fr-FR", appVersion: "2.0"))
    }

    @Test func theKeyGoesOnlyToTheGateway() async throws {
        let sender = ScriptedSender([])
        let authorizing = GatewayAuthorizingSender(connection: Self.connection, over: sender)
        for url in [
            "https://push.example.com/v1/apps/chat/taps", "https://push.example.com.evil.test/x",
            "https://api.example.com/like",
        ] {
            _ = try await authorizing.send(OutgoingRequest(url: url, method: "POST", headers: [:], body: nil))
        }
        #expect(sender.received.withLock { $0 }.map { $0.headers["Authorization"] } == ["Bearer pb_pk_test", nil, nil])
    }

    @Test func theTagStoreTellsTheGatewayOfEachChange() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let client = try client(fixture)
        #expect(await client.tagStore(local: InMemoryTagStore()) == nil)
        try await client.register(token: Self.token)
        let tags = try #require(await client.tagStore(local: InMemoryTagStore()))
        #expect(tags.url == "https://push.example.com/v1/apps/chat/devices/\(Self.token)/tags")
    }
}
