import Foundation
import Pushbutton
import PushbuttonGateway
import PushbuttonStore
import Testing

/// `POST /v1/apps/{app}/taps`, `GET /v1/apps/{app}/stats` and `POST /v1/apps/{app}/devices/{token}/tags` over
/// HTTP: keys, validation with located diagnostics, idempotency, and the exact counts and rates.
@Suite(.timeLimit(.minutes(3)))
struct TapRoutesTests {
    typealias F = GatewayFixture

    static func tap(
        _ event: String, token: String, notification: String, campaign: String? = nil, response: String = "button",
        button: String? = "like", foreground: Bool = false, latency: Int? = 1000, at: String = "2026-12-01T10:00:00Z"
    ) -> String {
        var fields = [
            #""event_id": "\#(event)""#, #""token": "\#(token)""#, #""notification": "\#(notification)""#,
            #""category": "message""#, #""response": "\#(response)""#, #""foreground": \#(foreground)"#,
            #""at": "\#(at)""#,
        ]
        if let campaign { fields.append(#""campaign": "\#(campaign)""#) }
        if let button { fields.append(#""button": "\#(button)""#) }
        fields.append(#""latency_ms": \#(latency.map(String.init) ?? "null")"#)
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func body(_ taps: [String]) -> String { #"{"taps": [\#(taps.joined(separator: ", "))]}"# }

    @Test func tapsAreCheckedStoredOnceAndCountedInTheStats() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let tokens = (1...4).map(F.token)
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": [\#(tokens.map { "\"\($0)\"" }.joined(separator: ", "))]}, "category": "message", "body": "Lunch?"}"#
        )
        #expect(sent.status == 202, "\(sent.body)")
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)

        // Without a key, with another app's key, and with an invalid event: nothing is stored.
        let batch = Self.body([
            Self.tap("e1", token: tokens[0], notification: id, latency: 1000),
            Self.tap("e2", token: tokens[1], notification: id, button: "open", foreground: true, latency: 3000),
        ])
        #expect(try await fixture.request("POST", "/v1/apps/chat/taps", key: nil, json: batch).status == 401)
        #expect(try await fixture.request("POST", "/v1/apps/chat/taps", key: F.otherSecret, json: batch).status == 403)
        let invalid = try await fixture.request(
            "POST", "/v1/apps/chat/taps", key: F.publishable,
            json: Self.body([
                Self.tap("e1", token: tokens[0], notification: id),
                Self.tap("e9", token: tokens[1], notification: id, button: nil),
                Self.tap("e8", token: "xyz", notification: id, response: "swipe", at: "yesterday"),
            ]))
        #expect(invalid.status == 422, "\(invalid.body)")
        let paths = invalid.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(Set(paths ?? []) == ["taps[1].button", "taps[2].token", "taps[2].response", "taps[2].at"])
        #expect(try await fixture.request("GET", "/v1/apps/chat/stats").json?.objectValue?["responses"] == 0)

        // The publishable key posts taps; the same events again are duplicates.
        let posted = try await fixture.request("POST", "/v1/apps/chat/taps", key: F.publishable, json: batch)
        #expect(posted.status == 200, "\(posted.body)")
        #expect(posted.json == ["accepted": 2, "duplicates": 0])
        let retried = try await fixture.request(
            "POST", "/v1/apps/chat/taps", key: F.publishable,
            json: Self.body([
                Self.tap("e2", token: tokens[1], notification: id, button: "open", foreground: true),
                Self.tap("e3", token: tokens[2], notification: id, response: "body", button: nil, latency: 2000),
                Self.tap("e4", token: tokens[3], notification: "n_unknown"),
            ]))
        #expect(retried.json == ["accepted": 2, "duplicates": 1])

        // Stats need the secret key.
        #expect(try await fixture.request("GET", "/v1/apps/chat/stats", key: F.publishable).status == 403)
        let stats = try await fixture.request("GET", "/v1/apps/chat/stats?category=message")
        #expect(stats.status == 200, "\(stats.body)")
        let expected: JSONValue = [
            "app": "chat", "campaign": nil, "category": "message", "from": nil, "to": nil,
            "sent": 4, "delivered": 4, "rejected": 0, "failed": 0, "dead_tokens": 0,
            "responses": 3, "response_rate": 0.75,
            "buttons": [
                ["button": "like", "taps": 1, "rate_of_deliveries": 0.25, "rate_of_responses": 0.3333],
                ["button": "open", "taps": 1, "rate_of_deliveries": 0.25, "rate_of_responses": 0.3333],
            ],
            "body": 1, "dismissals": nil, "foreground": 1, "background": 2,
            "received": 0, "received_rate": 0.0, "response_rate_of_received": 0.0,
            "time_to_tap_ms": ["median": 2000, "p90": 3000],
        ]
        #expect(stats.json == expected)
        // A window that ends before the taps: the outcomes only if they finished in it.
        let window = try await fixture.request(
            "GET", "/v1/apps/chat/stats?from=2020-01-01T00:00:00Z&to=2026-12-01T09:00:00Z")
        #expect(window.json?.objectValue?["responses"] == 0)
        #expect(window.json?.objectValue?["from"] == "2020-01-01T00:00:00.000Z")
        let bad = try await fixture.request("GET", "/v1/apps/chat/stats?from=monday&campaign=c&category=x")
        #expect(bad.status == 422)
        #expect(try await fixture.request("GET", "/v1/apps/chat/stats?campaign=c_none").status == 404)
        #expect(try await fixture.request("GET", "/v1/apps/chat/taps").status == 405)
        #expect(try await fixture.request("GET", "/v1/apps/chat/taps", key: nil).status == 401)
    }

    @Test func aCampaignsStatsAndADevicesOwnTags() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let tokens = (1...2).map(F.token)
        for token in tokens {
            let registered = try await fixture.request(
                "PUT", "/v1/apps/chat/devices/\(token)", key: F.publishable, json: #"{"tags": ["beta"]}"#)
            #expect(registered.status == 200)
        }
        let campaign = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: """
                {"category": "message", "body": "News"}
                {"token": "\(tokens[0])"}
                {"token": "\(tokens[1])"}
                """)
        let id = try #require(campaign.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        let posted = try await fixture.request(
            "POST", "/v1/apps/chat/taps", key: F.publishable,
            json: Self.body([Self.tap("c1", token: tokens[0], notification: id, campaign: id, button: "open")]))
        #expect(posted.json == ["accepted": 1, "duplicates": 0])
        let stats = try await fixture.request("GET", "/v1/apps/chat/stats?campaign=\(id)")
        let object = try #require(stats.json?.objectValue, "\(stats.body)")
        #expect(object["campaign"]?.stringValue == id)
        #expect(object["category"] == "message")
        #expect(object["delivered"] == 2)
        #expect(object["response_rate"] == 0.5)
        #expect(object["buttons"]?.arrayValue?.map { $0.objectValue?["taps"] } == [0, 1])
        // The other app cannot read it.
        #expect(
            try await fixture.request("GET", "/v1/apps/other/stats?campaign=\(id)", key: F.otherSecret).status == 403)

        // A device changes its own tags with the publishable key.
        let tagged = try await fixture.request(
            "POST", "/v1/apps/chat/devices/\(tokens[0])/tags", key: F.publishable,
            json: #"{"add": ["vip"], "remove": ["beta"]}"#)
        #expect(tagged.status == 200, "\(tagged.body)")
        #expect(tagged.json?.objectValue?["tags"] == ["vip"])
        #expect(try fixture.gateway.store.tokens(app: "chat", audience: .tag("beta"), limit: 10) == [tokens[1]])
        let unknown = try await fixture.request(
            "POST", "/v1/apps/chat/devices/\(F.token(9))/tags", key: F.publishable, json: #"{"add": ["x"]}"#)
        #expect(unknown.status == 404)
        let invalid = try await fixture.request(
            "POST", "/v1/apps/chat/devices/\(tokens[0])/tags", key: F.publishable, json: #"{"add": [""], "tag": 1}"#)
        #expect(invalid.status == 422)
    }
}
