import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonStore
import Testing

/// `POST /v1/apps/{app}/receipts` over HTTP, as the taps route: the publishable key, located diagnostics with
/// nothing stored for a batch holding an invalid receipt, duplicates counted once, and `received` in the stats.
@Suite(.timeLimit(.minutes(3)))
struct ReceiptRoutesTests {
    typealias F = GatewayFixture

    static func receipt(_ event: String, token: String, notification: String, extra: String = "") -> String {
        #"{"event_id": "\#(event)", "token": "\#(token)", "notification": "\#(notification)", "at": "2026-12-01T10:00:00Z"\#(extra)}"#
    }

    static func body(_ receipts: [String]) -> String { #"{"receipts": [\#(receipts.joined(separator: ", "))]}"# }

    @Test func receiptsAreCheckedStoredOnceAndCountedInTheStats() async throws {
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

        let batch = Self.body([
            Self.receipt("r1", token: tokens[0], notification: id),
            Self.receipt("r2", token: tokens[1], notification: id, extra: #", "variant": "b""#),
        ])
        #expect(try await fixture.request("POST", "/v1/apps/chat/receipts", key: nil, json: batch).status == 401)
        #expect(
            try await fixture.request("POST", "/v1/apps/chat/receipts", key: F.otherSecret, json: batch).status == 403)
        let invalid = try await fixture.request(
            "POST", "/v1/apps/chat/receipts", key: F.publishable,
            json: Self.body([
                Self.receipt("r1", token: tokens[0], notification: id),
                Self.receipt("r8", token: "xyz", notification: id, extra: #", "category": "message""#),
                #"{"event_id": "r9", "token": "\#(tokens[2])", "at": "yesterday"}"#,
            ]))
        #expect(invalid.status == 422, "\(invalid.body)")
        let paths = invalid.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(
            Set(paths ?? []) == [
                "receipts[1].token", "receipts[1].category", "receipts[2].notification", "receipts[2].at",
            ])
        let empty = try await fixture.request(
            "POST", "/v1/apps/chat/receipts", key: F.publishable, json: #"{"receipts": []}"#)
        #expect(empty.status == 422)
        #expect(try await fixture.request("GET", "/v1/apps/chat/stats").json?.objectValue?["received"] == 0)

        let posted = try await fixture.request("POST", "/v1/apps/chat/receipts", key: F.publishable, json: batch)
        #expect(posted.status == 200, "\(posted.body)")
        #expect(posted.json == ["accepted": 2, "duplicates": 0])
        let retried = try await fixture.request(
            "POST", "/v1/apps/chat/receipts", key: F.publishable,
            json: Self.body([
                Self.receipt("r2", token: tokens[1], notification: id),
                Self.receipt("r3", token: tokens[2], notification: id),
            ]))
        #expect(retried.json == ["accepted": 1, "duplicates": 1])
        let tap = TapRoutesTests.body([TapRoutesTests.tap("t1", token: tokens[0], notification: id)])
        #expect(try await fixture.request("POST", "/v1/apps/chat/taps", key: F.publishable, json: tap).status == 200)

        let stats = try #require(
            try await fixture.request("GET", "/v1/apps/chat/stats?category=message").json?.objectValue)
        #expect(stats["delivered"] == 4)
        #expect(stats["received"] == 3)
        #expect(stats["received_rate"] == 0.75)
        #expect(stats["response_rate_of_received"] == 0.3333)
        #expect(try await fixture.request("GET", "/v1/apps/chat/receipts").status == 405)
    }
}

/// The notification's short form takes `media`: it becomes `pushbutton.media` with `mutable-content: 1`, checked
/// with its path in the request.
@Suite(.timeLimit(.minutes(3)))
struct MediaFieldTests {
    typealias F = GatewayFixture

    @Test func mediaReachesAPNsWithMutableContentAndABadTypeIsLocated() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"""
                {"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Sale",
                 "media": {"url": "https://cdn.example.com/sale.jpg", "type": "image"}}
                """#)
        #expect(sent.status == 202, "\(sent.body)")
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        let payload = try JSONParser.parse(try #require(fixture.mock.notifications.first).payloadText)
        #expect(payload["aps"]?["mutable-content"] == 1)
        #expect(payload["pushbutton"]?["media"] == ["type": "image", "url": "https://cdn.example.com/sale.jpg"])
        let bad = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"""
                {"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Sale",
                 "media": {"url": "ftp://cdn.example.com/a.jpg", "type": "photo"}}
                """#)
        #expect(bad.status == 422, "\(bad.body)")
        let paths = bad.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(paths?.contains("media.type") == true, "\(bad.body)")
    }
}
