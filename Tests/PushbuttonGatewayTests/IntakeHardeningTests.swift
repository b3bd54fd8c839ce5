import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// Issue 32's intake defects through ``RouterClient``: a retried campaign page stored once, audiences never
/// truncated, bounded diagnostics and inputs, `collapse_id`, duplicate keys, `registered_at` and NUL.
@Suite(.timeLimit(.minutes(2)))
struct IntakeHardeningTests {
    typealias F = GatewayFixture

    /// A campaign of `app` created with the tokens `numbers`; its id.
    static func campaign(_ fixture: RouterClient, _ numbers: ClosedRange<Int>) throws -> String {
        let header = #"{"category": "message", "body": "Hi"}"#
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: ([header] + numbers.map { F.token($0) }).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        return try #require(created.json?.objectValue?["id"]?.stringValue)
    }

    @Test func aRetriedCampaignPageWithItsIdempotencyKeyIsStoredOnce() throws {
        let fixture = try RouterClient()
        let id = try Self.campaign(fixture, 1...2)
        let page = (3...7).map { F.token($0) }.joined(separator: "\n")
        let path = "/v1/campaigns/\(id)/recipients"
        let first = fixture.request("POST", path, json: page, headers: ["Idempotency-Key": "page-1"])
        #expect(first.status == 202, "\(first.body)")
        #expect(first.json?.objectValue?["recipients"] == 7)
        #expect(first.json?.objectValue?["replayed"] == nil)
        let again = fixture.request("POST", path, json: page, headers: ["Idempotency-Key": "page-1"])
        #expect(again.status == 202, "\(again.body)")
        #expect(again.json?.objectValue?["replayed"] == true)
        #expect(again.json?.objectValue?["recipients"] == 7)
        #expect(try fixture.store.queueDepth() == 7)
        let other = fixture.request("POST", path, json: F.token(8), headers: ["Idempotency-Key": "page-1"])
        #expect(other.status == 409, "\(other.body)")
        #expect(other.json?.objectValue?["error"]?.objectValue?["code"] == "idempotency_conflict")
        // The key is the campaign's: another campaign, or a create route, may use it for its own request.
        let second = try Self.campaign(fixture, 1...1)
        let elsewhere = fixture.request(
            "POST", "/v1/campaigns/\(second)/recipients", json: page, headers: ["Idempotency-Key": "page-1"])
        #expect(elsewhere.status == 202 && elsewhere.json?.objectValue?["replayed"] == nil, "\(elsewhere.body)")
        let created = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#,
            headers: ["Idempotency-Key": "page-1"])
        #expect(created.status == 202 && created.json?.objectValue?["replayed"] == nil, "\(created.body)")
        // A new key adds its page; without a key, every page is added.
        #expect(fixture.request("POST", path, json: F.token(8), headers: ["Idempotency-Key": "page-2"]).status == 202)
        #expect(fixture.request("POST", path, json: F.token(9)).json?.objectValue?["recipients"] == 9)
        // A retry after a cancel still gets its first answer; a new page is refused.
        #expect(fixture.request("POST", "/v1/campaigns/\(id)/cancel").status == 200)
        let late = fixture.request("POST", path, json: page, headers: ["Idempotency-Key": "page-1"])
        #expect(late.status == 202 && late.json?.objectValue?["replayed"] == true, "\(late.body)")
        let closed = fixture.request("POST", path, json: page, headers: ["Idempotency-Key": "page-3"])
        #expect(closed.status == 409 && closed.json?.objectValue?["error"]?.objectValue?["code"] == "campaign_closed")
    }

    /// Registers the tokens `numbers` for `chat` with `user` and the tag `all`, straight into the store.
    static func register(_ fixture: RouterClient, _ numbers: ClosedRange<Int>, user: String) throws {
        for number in numbers {
            _ = try fixture.store.register(
                DeviceRegistration(
                    app: "chat", token: F.token(number), userID: user, tags: ["all"],
                    registeredAt: Date(timeIntervalSince1970: 1_700_000_000)),
                now: Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    @Test func anAudienceOverTheLimitIsRefusedNotCut() throws {
        let fixture = try RouterClient(maximumRecipients: 3)
        try Self.register(fixture, 1...4, user: "u")
        for to in [#"{"tag": "all"}"#, #"{"user": "u"}"#] {
            let answer = fixture.request(
                "POST", "/v1/apps/chat/notifications", json: #"{"to": \#(to), "category": "message", "body": "Hi"}"#)
            #expect(answer.status == 422, "\(answer.body)")
            #expect(answer.body.contains("more than 3 active devices") && answer.body.contains("campaign"))
        }
        #expect(try fixture.store.queueDepth() == 0)
        // At the limit, every device is reached.
        _ = try fixture.store.forget(app: "chat", token: F.token(4))
        let atLimit = fixture.request(
            "POST", "/v1/apps/chat/notifications", json: #"{"to": {"tag": "all"}, "category": "message", "body": "Hi"}"#
        )
        #expect(atLimit.status == 202 && atLimit.json?.objectValue?["recipients"] == 3, "\(atLimit.body)")
    }

    @Test func aCampaignLinesUserOverTheDeviceLimitRefusesThePage() throws {
        let fixture = try RouterClient()
        try Self.register(fixture, 1...(CampaignIntake.devicesPerUser + 1), user: "big")
        let id = try Self.campaign(fixture, 9_000...9_000)
        let page = [F.token(9_001), #"{"user": "big"}"#].joined(separator: "\n")
        let answer = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(answer.status == 422, "\(answer.body)")
        #expect(answer.body.contains("line 2") && answer.body.contains("more than 1000 active devices"))
        #expect(try fixture.store.queueDepth() == 1)
        _ = try fixture.store.forget(app: "chat", token: F.token(1))
        let atLimit = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(atLimit.status == 202 && atLimit.json?.objectValue?["recipients"] == 1_002, "\(atLimit.body)")
    }

    /// The diagnostics of a `422`.
    static func diagnostics(_ answer: RouterClient.Answer) -> [[String: JSONValue]] {
        answer.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    static func paths(_ answer: RouterClient.Answer) -> [String] {
        diagnostics(answer).compactMap { $0["path"]?.stringValue }
    }

    static let device = "/v1/apps/chat/devices/\(F.token(1))"

    @Test func aHugeBodyGetsABoundedAnswerAndTheInputsAreBounded() throws {
        let fixture = try RouterClient()
        let numbers = Array(repeating: "1", count: 200_000).joined(separator: ",")
        let tags = fixture.request("PUT", Self.device, key: F.publishable, json: #"{"tags": [\#(numbers)]}"#)
        #expect(tags.status == 422)
        #expect(tags.body.utf8.count < 2_000, "\(tags.body.utf8.count) bytes")
        #expect(tags.body.contains("200000 elements, more than the limit of 100"))
        // A notification's tokens: 99 diagnostics and one for the rest, not one per element.
        let tokens = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": [\#(numbers)]}, "category": "message", "body": "Hi"}"#)
        #expect(tokens.status == 422)
        #expect(Self.diagnostics(tokens).count == 100)
        #expect(tokens.body.utf8.count < 40_000, "\(tokens.body.utf8.count) bytes")
        #expect(tokens.body.contains("199901 more token(s) not checked after 99 invalid ones"))
        // Any answer: the first 100 diagnostics and one counting the rest.
        let many = (0..<150).map { #""x\#($0)": 1"# }.joined(separator: ", ")
        let unknown = fixture.request("PUT", Self.device, key: F.publishable, json: "{\(many)}")
        #expect(unknown.status == 422)
        #expect(Self.diagnostics(unknown).count == 101)
        #expect(Self.diagnostics(unknown).last?["message"] == "50 more diagnostic(s) not shown")
        #expect(unknown.body.contains("has 150 error(s)"))
        // The lengths of what a publishable key stores.
        let long = [
            ("locale", String(repeating: "a", count: 36)), ("app_version", String(repeating: "1", count: 65)),
            ("user_id", String(repeating: "u", count: 257)),
        ]
        for (key, value) in long {
            let answer = fixture.request("PUT", Self.device, key: F.publishable, json: #"{"\#(key)": "\#(value)"}"#)
            #expect(answer.status == 422 && Self.paths(answer) == [key], "\(answer.body)")
        }
        let longTag = fixture.request(
            "PUT", Self.device, key: F.publishable, json: #"{"tags": ["ok", "\#(String(repeating: "t", count: 201))"]}"#
        )
        #expect(longTag.status == 422 && Self.paths(longTag) == ["tags[1]"], "\(longTag.body)")
        let atLimits = fixture.request(
            "PUT", Self.device, key: F.publishable,
            json: #"""
                {"locale": "\#(String(repeating: "a", count: 35))", "app_version": "\#(String(repeating: "1", count: 64))",
                 "user_id": "\#(String(repeating: "u", count: 256))",
                 "tags": [\#((0..<100).map { #""\#(String(repeating: "t", count: 197))\#($0 % 10)\#($0 / 10)""# }.joined(separator: ","))]}
                """#)
        #expect(atLimits.status == 200, "\(atLimits.body)")
        #expect(try fixture.store.queueDepth() == 0)
    }

    @Test func aCollapseIDThatCannotBeAHeaderIsRefusedAtIntake() throws {
        let fixture = try RouterClient()
        for id in [#"a\r\nb"#, #"a\u0000b"#, #"tab\there"#, #"del\u007f"#, String(repeating: "c", count: 65)] {
            let answer = fixture.request(
                "POST", "/v1/apps/chat/notifications",
                json:
                    #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", "collapse_id": "\#(id)"}"#
            )
            #expect(answer.status == 422 && Self.paths(answer).contains("collapse_id"), "\(id): \(answer.body)")
        }
        let campaign = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Hi", "collapse_id": "x\ny"}"# + "\n" + F.token(1))
        #expect(campaign.status == 422 && Self.paths(campaign) == ["collapse_id"], "\(campaign.body)")
        #expect(try fixture.store.queueDepth() == 0)
        let fine = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", "collapse_id": "score-é"}"#
        )
        #expect(fine.status == 202, "\(fine.body)")
    }

    @Test func aBodyWithAMemberTwiceIsRefusedNamingIt() throws {
        let fixture = try RouterClient()
        let notification = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", "body": "Ho"}"#)
        #expect(notification.status == 422 && Self.paths(notification) == ["body"], "\(notification.body)")
        #expect(Self.diagnostics(notification).first?["code"] == "duplicate-key")
        #expect(Self.diagnostics(notification).first?["line"] == 1)
        let nested = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"user": "a", "user": "b"}, "category": "message", "body": "Hi"}"#)
        #expect(nested.status == 422 && Self.paths(nested) == ["to.user"], "\(nested.body)")
        let device = fixture.request(
            "PUT", Self.device, key: F.publishable, json: #"{"user_id": "alice", "user_id": "mallory"}"#)
        #expect(device.status == 422 && Self.paths(device) == ["user_id"], "\(device.body)")
        let id = try Self.campaign(fixture, 1...1)
        let line = fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients",
            json: #"{"token": "\#(F.token(2))", "token": "\#(F.token(3))"}"#)
        #expect(line.status == 422 && Self.paths(line) == ["token"], "\(line.body)")
        #expect(try fixture.store.queueDepth() == 1)
        #expect(try fixture.store.device(app: "chat", token: F.token(1)) == nil)
    }

    @Test func aRegistrationDatedInTheFutureIsTakenAsNow() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let fixture = try RouterClient(now: { now })
        let future = Int64(now.timeIntervalSince1970 * 1000) + 100 * 365 * 86_400_000
        let answer = fixture.request(
            "PUT", Self.device, key: F.publishable, json: #"{"registered_at": \#(future)}"#)
        #expect(answer.status == 200, "\(answer.body)")
        let stored = try #require(try fixture.store.device(app: "chat", token: F.token(1)))
        #expect(stored.registration.registeredAt == now)
        // A 410 from APNs a second later retires the token.
        #expect(
            try fixture.store.markInactive(
                app: "chat", token: F.token(1), since: now.addingTimeInterval(1), now: now.addingTimeInterval(1)))
        #expect(try fixture.store.isInactive(app: "chat", token: F.token(1)))
        // A past time is kept as given.
        let past = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(2))", key: F.publishable, json: #"{"registered_at": 1700000000000}"#
        )
        #expect(past.status == 200)
        #expect(
            try fixture.store.device(app: "chat", token: F.token(2))?.registration.registeredAt
                == Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test func aNULInAnyStoredStringIsRefused() throws {
        let fixture = try RouterClient()
        for body in [
            #"{"user_id": "alice\u0000x"}"#, #"{"tags": ["vip\u0000"]}"#, #"{"locale": "en\u0000"}"#,
            #"{"app_version": "1\u0000"}"#,
        ] {
            let answer = fixture.request("PUT", Self.device, key: F.publishable, json: body)
            #expect(answer.status == 422 && answer.body.contains("NUL"), "\(body): \(answer.body)")
        }
        #expect(try fixture.store.device(app: "chat", token: F.token(1)) == nil)
        for body in [
            #"{"to": {"user": "alice\u0000x"}, "category": "message", "body": "Hi"}"#,
            #"{"to": {"tag": "a\u0000"}, "category": "message", "body": "Hi"}"#,
            #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi {{n}}", "data": {"n": "\u0000"}}"#,
        ] {
            let answer = fixture.request("POST", "/v1/apps/chat/notifications", json: body)
            #expect(answer.status == 422 && answer.body.contains("NUL"), "\(body): \(answer.body)")
        }
        let tags = fixture.request(
            "POST", "/v1/apps/chat/devices/\(F.token(1))/tags", key: F.publishable, json: #"{"add": ["a\u0000"]}"#)
        #expect(tags.status == 422 && tags.body.contains("NUL"), "\(tags.body)")
        let id = try Self.campaign(fixture, 1...1)
        let line = fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients", json: #"{"user": "alice\u0000x"}"#)
        #expect(line.status == 422 && line.body.contains("NUL"), "\(line.body)")
        #expect(try fixture.store.queueDepth() == 1)
    }
}
