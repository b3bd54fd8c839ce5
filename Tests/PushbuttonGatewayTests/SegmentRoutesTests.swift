import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// Issue 35's "to whom" and "in which language" through the router (SQLite; the SQL itself runs on both
/// stores in ``SegmentStoreTests``): audience counts, saved segments, `to.segment` on notifications and
/// campaigns, refused expressions at their paths, and `localized` text chosen per device.
@Suite(.timeLimit(.minutes(2)))
struct SegmentRoutesTests {
    typealias F = GatewayFixture

    /// Registers devices 1 (fr-CA, beta, 2.1, Paris), 2 (de-CH, 1.9, Zurich), 3 (en-US, beta, 3.0) and 4 (no locale, beta).
    func registered() throws -> RouterClient {
        let fixture = try RouterClient()
        let bodies = [
            #"{"locale": "fr-CA", "tags": ["beta"], "app_version": "2.1", "user_id": "u-1", "time_zone": "Europe/Paris"}"#,
            #"{"locale": "de-CH", "app_version": "1.9", "time_zone": "Europe/Zurich"}"#,
            #"{"locale": "en-US", "tags": ["beta"], "app_version": "3.0"}"#,
            #"{"tags": ["beta"]}"#,
        ]
        for (index, body) in bodies.enumerated() {
            let answer = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(index + 1))", key: F.publishable, json: body)
            #expect(answer.status == 200, "\(answer.body)")
        }
        return fixture
    }

    func count(_ fixture: RouterClient, _ segment: String) -> RouterClient.Answer {
        fixture.request("POST", "/v1/apps/chat/audience/count", json: #"{"segment": \#(segment)}"#)
    }

    func diagnosticPaths(_ answer: RouterClient.Answer) -> [String] {
        answer.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        } ?? []
    }

    @Test func audienceCountsActiveDevicesOfAnExpression() throws {
        let fixture = try registered()
        let cases: [(String, Int64)] = [
            (#"{"tag": "beta"}"#, 3), (#"{"locale": "fr"}"#, 1), (#"{"app_version": ">=2.1"}"#, 2),
            (#"{"and": [{"tag": "beta"}, {"not": {"locale": "fr"}}]}"#, 2),
            (#"{"or": [{"user": "u-1"}, {"locale": "de"}]}"#, 2), (#"{"last_seen_days": 30}"#, 4),
            (#"{"tapped": {"category": "message", "within_days": 7}}"#, 0), (#"{"time_zone": "Europe/Paris"}"#, 1),
            (#"{"or": [{"time_zone": "Europe/Paris"}, {"time_zone": "Europe/Zurich"}]}"#, 2),
        ]
        for (segment, expected) in cases {
            let answer = count(fixture, segment)
            #expect(answer.status == 200, "\(segment): \(answer.body)")
            #expect(answer.json?.objectValue?["devices"] == .integer(expected), "\(segment)")
        }
        // A publishable key cannot count.
        #expect(
            fixture.request(
                "POST", "/v1/apps/chat/audience/count", key: F.publishable, json: #"{"segment": {"tag": "beta"}}"#
            ).status == 403)
    }

    @Test func badExpressionsAreRefusedAtTheirPath() throws {
        let fixture = try registered()
        let cases: [(String, String)] = [
            (#"{"and": [{"tag": "beta"}, {"colour": "red"}]}"#, "segment.and[1].colour"),
            (#"{"app_version": ">=two"}"#, "segment.app_version"),
            (#"{"tag": 3}"#, "segment.tag"),
            (#"{"last_seen_days": -1}"#, "segment.last_seen_days"),
            (#"{"tapped": {"within_days": "7"}}"#, "segment.tapped.within_days"),
            (#"{"locale": "not a locale"}"#, "segment.locale"),
            (#"{"tag": "a", "user": "b"}"#, "segment"),
            (#"{"saved": "nobody"}"#, "segment.saved"),
            (#"{"time_zone": "Europe/Atlantis"}"#, "segment.time_zone"),
            (#"{"and": [{"time_zone": 1}]}"#, "segment.and[0].time_zone"),
        ]
        for (segment, path) in cases {
            let answer = count(fixture, segment)
            #expect(answer.status == 422, "\(segment): \(answer.body)")
            #expect(diagnosticPaths(answer).contains(path), "\(segment): \(answer.body)")
        }
        var deep = #"{"tag": "beta"}"#
        for _ in 0..<16 { deep = #"{"not": \#(deep)}"# }
        let tooDeep = count(fixture, deep)
        #expect(tooDeep.status == 422)
        #expect(tooDeep.body.contains("deeper than 16"), "\(tooDeep.body)")
    }

    @Test func savedSegmentsAreUsedByName() throws {
        let fixture = try registered()
        let saved = fixture.request(
            "PUT", "/v1/apps/chat/segments/beta-fr", json: #"{"and": [{"tag": "beta"}, {"locale": "fr"}]}"#)
        #expect(saved.status == 200, "\(saved.body)")
        #expect(saved.json?.objectValue?["name"] == "beta-fr")
        #expect(count(fixture, #"{"saved": "beta-fr"}"#).json?.objectValue?["devices"] == .integer(1))
        #expect(count(fixture, #"{"not": {"saved": "beta-fr"}}"#).json?.objectValue?["devices"] == .integer(3))
        let list = fixture.request("GET", "/v1/apps/chat/segments")
        #expect(list.json?.objectValue?["segments"]?.arrayValue?.count == 1)
        #expect(fixture.request("GET", "/v1/apps/chat/segments/beta-fr").status == 200)
        // A bad expression is not saved; nor is a bad name; a segment naming itself nests too deep.
        #expect(fixture.request("PUT", "/v1/apps/chat/segments/bad", json: #"{"tagg": "x"}"#).status == 422)
        #expect(fixture.request("PUT", "/v1/apps/chat/segments/a%20b", json: #"{"tag": "x"}"#).status == 422)
        #expect(fixture.request("PUT", "/v1/apps/chat/segments/loop", json: #"{"tag": "x"}"#).status == 200)
        let loop = fixture.request("PUT", "/v1/apps/chat/segments/loop", json: #"{"or": [{"saved": "loop"}]}"#)
        #expect(loop.status == 422)
        #expect(loop.body.contains("deeper than 16"), "\(loop.body)")
        #expect(fixture.request("DELETE", "/v1/apps/chat/segments/beta-fr").status == 204)
        #expect(fixture.request("DELETE", "/v1/apps/chat/segments/beta-fr").status == 404)
        #expect(fixture.request("GET", "/v1/apps/other/segments", key: F.secret).status == 403)
    }

    /// The payloads queued for a notification, by token.
    func payloads(_ fixture: RouterClient) throws -> [String: JSONValue] {
        var payloads: [String: JSONValue] = [:]
        for delivery in try fixture.store.lease(limit: 100, duration: 60, now: Date()) {
            payloads[delivery.token] = try JSONParser.parse(String(decoding: delivery.payload, as: UTF8.self))
        }
        return payloads
    }

    func alert(_ payload: JSONValue?) -> [String: JSONValue]? {
        payload?.objectValue?["aps"]?.objectValue?["alert"]?.objectValue
    }

    @Test func aNotificationToASegmentGoesToItsDevicesEachInItsLanguage() throws {
        let fixture = try registered()
        let sent = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"segment": {"tag": "beta"}}, "category": "message", "title": "Hello", "body": "Hi",
                 "localized": {"fr": {"title": "Bonjour", "body": "Salut"}, "de": {"body": "Hallo"}}}
                """)
        #expect(sent.status == 202, "\(sent.body)")
        #expect(sent.json?.objectValue?["recipients"] == .integer(3))
        let payloads = try payloads(fixture)
        #expect(alert(payloads[F.token(1)])?["title"] == "Bonjour")  // fr-CA → fr
        #expect(alert(payloads[F.token(3)])?["title"] == "Hello")  // en-US → the default
        #expect(alert(payloads[F.token(4)])?["body"] == "Hi")  // no locale → the default
        #expect(payloads[F.token(2)] == nil)  // not beta
    }

    @Test func aCampaignToASegmentAddsItsDevicesWithTheirLanguages() throws {
        let fixture = try registered()
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: """
                {"to": {"segment": {"or": [{"locale": "de"}, {"locale": "fr"}]}}, "category": "message", "body": "Hi", "localized": {"de": {"body": "Hallo"}, "fr-CA": {"body": "Allô"}}}
                {"token": "\(F.token(3))"}
                """)
        #expect(created.status == 202, "\(created.body)")
        #expect(created.json?.objectValue?["recipients"] == .integer(3), "\(created.body)")
        let payloads = try payloads(fixture)
        #expect(alert(payloads[F.token(1)])?["body"] == "Allô")
        #expect(alert(payloads[F.token(2)])?["body"] == "Hallo")  // de-CH → de
        #expect(alert(payloads[F.token(3)])?["body"] == "Hi")  // a line of its own, en-US
        // A campaign's `to` is a segment, nothing else.
        let tagged = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: #"{"to": {"tag": "beta"}, "category": "message", "body": "Hi"}"#)
        #expect(tagged.status == 422)
        #expect(diagnosticPaths(tagged) == ["to"])
    }

    @Test func aCampaignLinesUserGetsEachDeviceInItsLanguage() throws {
        let fixture = try registered()
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: """
                {"category": "message", "body": "Hi {{name}}", "localized": {"fr": {"body": "Salut {{name}}"}}}
                {"user": "u-1", "data": {"name": "Anna"}}
                {"token": "\(F.token(3))", "data": {"name": "Ben"}}
                """)
        #expect(created.status == 202, "\(created.body)")
        let payloads = try payloads(fixture)
        #expect(alert(payloads[F.token(1)])?["body"] == "Salut Anna")
        #expect(alert(payloads[F.token(3)])?["body"] == "Hi Ben")
    }

    @Test func aSegmentOverTheLimitIsRefusedAtItsPath() throws {
        let fixture = try RouterClient(maximumRecipients: 1)
        for number in 1...2 {
            _ = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))", key: F.publishable, json: #"{"tags": ["beta"]}"#)
        }
        let sent = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"segment": {"tag": "beta"}}, "category": "message", "body": "Hi"}"#)
        #expect(sent.status == 422)
        #expect(diagnosticPaths(sent) == ["to.segment"], "\(sent.body)")
        #expect(try fixture.store.queueDepth() == 0)
    }

    @Test func eachLanguageIsCheckedAndNamedWhenTooLong() throws {
        let fixture = try registered()
        let long = String(repeating: "x", count: 5000)
        let tooLong = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"tokens": ["\(F.token(1))"]}, "category": "message", "body": "Hi",
                 "localized": {"fr": {"body": "Salut"}, "de": {"body": "\(long)"}}}
                """)
        #expect(tooLong.status == 422)
        #expect(diagnosticPaths(tooLong).contains { $0.hasPrefix("localized.de") }, "\(tooLong.body)")
        #expect(tooLong.body.contains("in 'de'"), "\(tooLong.body)")
        let badLanguage = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"tokens": ["\(F.token(1))"]}, "category": "message", "body": "Hi",
                 "localized": {"fr": {"body": 3, "sound": "x"}, "??": {"body": "x"}}}
                """)
        #expect(badLanguage.status == 422)
        #expect(
            Set(diagnosticPaths(badLanguage)).isSuperset(of: [
                "localized.fr.body", "localized.fr.sound", #"localized["??"]"#,
            ]))
        #expect(try fixture.store.queueDepth() == 0)
    }
}
