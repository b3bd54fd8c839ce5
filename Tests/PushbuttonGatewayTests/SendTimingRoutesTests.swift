import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// Issue 35's "when" through the routes (in process, SQLite, an injected `now`): `send_at` stored and
/// counted `scheduled`, a scheduled notification cancelled, bad times refused with the field's path, device
/// time zones, and a local-time campaign whose recipients come due at 09:00 on each device's clock.
@Suite(.timeLimit(.minutes(3)))
struct SendTimingRoutesTests {
    typealias F = GatewayFixture
    /// 2026-12-01T12:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_796_126_400)

    func paths(_ answer: RouterClient.Answer) -> [String] {
        answer.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        } ?? []
    }

    func counts(_ answer: RouterClient.Answer) -> [String: JSONValue] {
        answer.json?.objectValue?["counts"]?.objectValue ?? [:]
    }

    @Test func aScheduledNotificationIsStoredCountedScheduledAndCancelled() throws {
        let fixture = try RouterClient(now: { Self.now })
        let answer = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", "#
                + #""send_at": "2026-12-01T14:00:00+01:00"}"#)
        #expect(answer.status == 202, "\(answer.body)")
        #expect(counts(answer)["scheduled"] == 1)
        #expect(counts(answer)["queued"] == 0)
        #expect(answer.json?.objectValue?["send_at"] == "2026-12-01T13:00:00.000Z")
        let id = try #require(answer.json?.objectValue?["id"]?.stringValue)
        #expect(try fixture.store.lease(limit: 10, duration: 30, now: Self.now).isEmpty)
        let cancelled = fixture.request("POST", "/v1/notifications/\(id)/cancel")
        #expect(cancelled.status == 200, "\(cancelled.body)")
        #expect(cancelled.json?.objectValue?["state"] == "cancelled")
        #expect(counts(cancelled)["cancelled"] == 1)
        #expect(try fixture.store.lease(limit: 10, duration: 30, now: Self.now + 7200).isEmpty)
        #expect(fixture.request("POST", "/v1/notifications/n_nope/cancel").status == 404)
    }

    @Test func pastAbsurdAndMalformedTimesAreRefusedWithThePath() throws {
        let fixture = try RouterClient(now: { Self.now })
        let bad = [
            #""send_at": "2026-12-01T11:00:00Z""#, #""send_at": "0001-01-01T00:00:00Z""#,
            #""send_at": "9999-12-31T23:59:59Z""#, #""send_at": "tomorrow at nine""#,
            #""send_at": "2026-12-24T09:00:00""#, #""send_at": 1796126400"#,
            #""send_at": "2026-12-24T09:00:00+01:00", "local_time": true"#, #""local_time": true"#,
        ]
        for fields in bad {
            let answer = fixture.request(
                "POST", "/v1/apps/chat/notifications",
                json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", \#(fields)}"#)
            #expect(answer.status == 422, "\(fields)")
            #expect(paths(answer) == ["send_at"], "\(fields): \(answer.body)")
        }
        let rate = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi", "#
                + #""throttle_per_minute": 10}"#)
        #expect(rate.status == 422)
        #expect(paths(rate) == ["throttle_per_minute"])
        let campaign = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Hi", "throttle_per_minute": 0}"# + "\n" + F.token(1))
        #expect(campaign.status == 422)
        #expect(paths(campaign) == ["throttle_per_minute"])
    }

    @Test func devicesRegisterATimeZoneTheTzDatabaseKnows() throws {
        let fixture = try RouterClient(now: { Self.now })
        let good = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(1))", json: #"{"time_zone": "Europe/Paris"}"#)
        #expect(good.status == 200 || good.status == 201, "\(good.body)")
        #expect(good.json?.objectValue?["time_zone"] == "Europe/Paris")
        #expect(try fixture.store.device(app: "chat", token: F.token(1))?.registration.timeZone == "Europe/Paris")
        let bad = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(2))", json: #"{"time_zone": "Europe/Pariss"}"#)
        #expect(bad.status == 422)
        #expect(paths(bad) == ["time_zone"])
    }

    /// 09:00 on each device's clock: Paris (UTC+1 in December), New York (UTC-5), a device without a zone
    /// (the app's default, UTC here) and Tokyo on a day where 09:00 has already passed there when the campaign
    /// is created (sent at once).
    @Test func aLocalTimeCampaignIsDueAtNineOnEachDevicesClock() throws {
        let fixture = try RouterClient(now: { Self.now })
        for (number, zone) in [(1, "Europe/Paris"), (2, "America/New_York"), (4, "Asia/Tokyo")] {
            let answer = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))", json: #"{"time_zone": "\#(zone)"}"#)
            #expect(answer.status < 300, "\(answer.body)")
        }
        // 2026-12-01T09:00 local, created at 12:00Z: Tokyo's was 00:00Z and Paris' 08:00Z (both past), UTC's
        // 09:00Z (past), New York's is 14:00Z (ahead).
        let header = #"{"category": "message", "body": "Hi", "send_at": "2026-12-01T09:00:00", "local_time": true}"#
        let lines = [1, 2, 3, 4].map { F.token($0) }.joined(separator: "\n")
        let created = fixture.request("POST", "/v1/apps/chat/campaigns", json: header + "\n" + lines)
        #expect(created.status == 202, "\(created.body)")
        let store = fixture.store
        let atOnce = try store.lease(limit: 10, duration: 86_400, now: Self.now)
        #expect(Set(atOnce.map(\.token)) == [F.token(1), F.token(3), F.token(4)])
        let campaign = try #require(created.json?.objectValue?["id"]?.stringValue)
        #expect(counts(fixture.request("GET", "/v1/campaigns/\(campaign)"))["scheduled"] == 1)
        #expect(try store.lease(limit: 10, duration: 86_400, now: Self.now + 2 * 3600 - 1).isEmpty)
        let newYork = try store.lease(limit: 10, duration: 86_400, now: Self.now + 2 * 3600)
        #expect(newYork.map(\.token) == [F.token(2)])
    }

    /// A campaign to a segment times each of the segment's devices as it times a recipient line: 09:00 on the
    /// device's clock (Paris: passed, at once; New York: 14:00Z).
    @Test func aSegmentCampaignsDevicesAreDueAtTheirLocalTime() throws {
        let fixture = try RouterClient(now: { Self.now })
        for (number, zone) in [(1, "Europe/Paris"), (2, "America/New_York")] {
            let answer = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))",
                json: #"{"time_zone": "\#(zone)", "tags": ["beta"]}"#)
            #expect(answer.status < 300, "\(answer.body)")
        }
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"to": {"segment": {"tag": "beta"}}, "category": "message", "body": "Hi", "#
                + #""send_at": "2026-12-01T09:00:00", "local_time": true}"#)
        #expect(created.status == 202, "\(created.body)")
        #expect(counts(created)["scheduled"] == 1, "\(created.body)")
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: Self.now).map(\.token) == [F.token(1)])
        #expect(try fixture.store.nextDue(now: Self.now) == Self.now + 2 * 3600)
    }

    @Test func aLocalTimeCampaignTomorrowWaitsInEveryZone() throws {
        let fixture = try RouterClient(now: { Self.now })
        _ = fixture.request("PUT", "/v1/apps/chat/devices/\(F.token(1))", json: #"{"time_zone": "Europe/Paris"}"#)
        _ = fixture.request("PUT", "/v1/apps/chat/devices/\(F.token(2))", json: #"{"time_zone": "Asia/Tokyo"}"#)
        let header = #"{"category": "message", "body": "Hi", "send_at": "2026-12-02T09:00:00", "local_time": true}"#
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: header + "\n" + F.token(1) + "\n" + F.token(2))
        #expect(created.status == 202, "\(created.body)")
        #expect(counts(created)["scheduled"] == 2)
        // Tokyo's 09:00 (00:00Z), then Paris' (08:00Z).
        let tokyo = Self.now + 12 * 3600
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: tokyo).map(\.token) == [F.token(2)])
        #expect(try fixture.store.nextDue(now: tokyo) == Self.now + 20 * 3600)
    }

    /// A campaign with `localized` text times its lines' devices as any campaign's (each line's payload chosen
    /// by the device's language did not carry its due time: every one was due at once), each in its language.
    @Test func aLocalizedLocalTimeCampaignTomorrowWaitsInEveryZone() throws {
        let fixture = try RouterClient(now: { Self.now })
        let devices = [(1, "Europe/Paris", "fr-FR"), (2, "Asia/Tokyo", "ja")]
        for (number, zone, locale) in devices {
            let answer = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))",
                json: #"{"time_zone": "\#(zone)", "locale": "\#(locale)"}"#)
            #expect(answer.status < 300, "\(answer.body)")
        }
        let header =
            #"{"category": "message", "body": "Hi", "localized": {"fr": {"body": "Salut"}}, "#
            + #""send_at": "2026-12-02T09:00:00", "local_time": true}"#
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: header + "\n" + F.token(1) + "\n" + F.token(2))
        #expect(created.status == 202, "\(created.body)")
        #expect(counts(created)["scheduled"] == 2, "\(created.body)")
        let tokyo = try fixture.store.lease(limit: 10, duration: 86_400, now: Self.now + 12 * 3600)
        #expect(tokyo.map(\.token) == [F.token(2)])
        let paris = try fixture.store.lease(limit: 10, duration: 86_400, now: Self.now + 20 * 3600)
        #expect(paris.map(\.token) == [F.token(1)])
        let body = try JSONParser.parse(paris.first?.payload ?? []).objectValue?["aps"]?.objectValue?["alert"]
        #expect(body?.objectValue?["body"] == "Salut")
    }

    /// A campaign to a segment gets each device's own due time, as a list page does: local time, and quiet
    /// hours (here 22:00–08:00 in Paris, created at 23:00: the Paris device held, the Tokyo one at 08:00 its time).
    @Test func aSegmentCampaignsDevicesGetTheirOwnTimes() throws {
        let fixture = try RouterClient(now: { Self.now })
        for (number, zone) in [(1, "Europe/Paris"), (2, "Asia/Tokyo")] {
            let answer = fixture.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))", key: F.publishable,
                json: #"{"time_zone": "\#(zone)", "tags": ["beta"]}"#)
            #expect(answer.status < 300, "\(answer.body)")
        }
        let header =
            #"{"to": {"segment": {"tag": "beta"}}, "category": "message", "body": "Hi", "#
            + #""send_at": "2026-12-02T09:00:00", "local_time": true}"#
        let created = fixture.request("POST", "/v1/apps/chat/campaigns", json: header)
        #expect(created.status == 202, "\(created.body)")
        let campaign = try #require(created.json?.objectValue?["id"]?.stringValue)
        #expect(counts(fixture.request("GET", "/v1/campaigns/\(campaign)"))["scheduled"] == 2)
        let tokyo = Self.now + 12 * 3600
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: tokyo).map(\.token) == [F.token(2)])
        #expect(try fixture.store.nextDue(now: tokyo) == Self.now + 20 * 3600)

        // 2026-12-01T22:00:00Z: 23:00 in Paris, 07:00 in Tokyo.
        let late = Self.now + 10 * 3600
        let quiet = try RouterClient(now: { late }) { text in
            text.replacingOccurrences(
                of: #"{"id": "chat", "#, with: #"{"id": "chat", "quiet_hours": {"start": "22:00", "end": "08:00"}, "#)
        }
        for (number, zone) in [(1, "Europe/Paris"), (2, "Asia/Tokyo")] {
            _ = quiet.request(
                "PUT", "/v1/apps/chat/devices/\(F.token(number))", key: F.publishable,
                json: #"{"time_zone": "\#(zone)", "tags": ["beta"]}"#)
        }
        let held = quiet.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"to": {"segment": {"tag": "beta"}}, "category": "message", "body": "Hi"}"#)
        let heldID = try #require(held.json?.objectValue?["id"]?.stringValue)
        #expect(counts(quiet.request("GET", "/v1/campaigns/\(heldID)"))["held"] == 2)
        // Tokyo's 08:00 is 23:00Z; Paris' is 07:00Z on 12-02.
        #expect(try quiet.store.nextDue(now: late) == late + 3600)
        #expect(try quiet.store.lease(limit: 10, duration: 86_400, now: late + 3600).map(\.token) == [F.token(2)])
        #expect(
            try quiet.store.lease(limit: 10, duration: 86_400, now: Self.now + 19 * 3600).map(\.token) == [F.token(1)])
    }

    /// Quiet hours 22:00–08:00 (the app's, a device's own overriding them): a campaign created at 23:00 in
    /// Paris holds the Paris device until 08:00 (counted `held`), sends at once to a device whose own window is
    /// 01:00–06:00, and `ignore_quiet_hours` sends at once; a single notification is never held.
    @Test func quietHoursHoldCampaignSendsUntilTheirEnd() throws {
        // 2026-12-01T22:00:00Z: 23:00 in Paris.
        let late = Self.now + 10 * 3600
        let fixture = try RouterClient(now: { late }) { text in
            text.replacingOccurrences(
                of: #"{"id": "chat", "#,
                with:
                    #"{"id": "chat", "quiet_hours": {"start": "22:00", "end": "08:00"}, "default_time_zone": "Europe/Paris", "#
            )
        }
        _ = fixture.request("PUT", "/v1/apps/chat/devices/\(F.token(1))", json: #"{"time_zone": "Europe/Paris"}"#)
        let own = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(2))",
            json: #"{"time_zone": "Europe/Paris", "quiet_hours": {"start": "01:00", "end": "06:00"}}"#)
        #expect(own.json?.objectValue?["quiet_hours"] == ["start": "01:00", "end": "06:00"])
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Hi"}"# + "\n" + F.token(1) + "\n" + F.token(2))
        #expect(created.status == 202, "\(created.body)")
        #expect(counts(created)["held"] == 1)
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: late).map(\.token) == [F.token(2)])
        // 08:00 in Paris is 07:00Z on 12-02.
        let morning = Self.now + 19 * 3600
        #expect(try fixture.store.nextDue(now: late) == morning)
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: morning).map(\.token) == [F.token(1)])

        let urgent = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Code 1234", "ignore_quiet_hours": true}"# + "\n" + F.token(1))
        #expect(counts(urgent)["held"] == 0)
        let single = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#)
        #expect(counts(single)["held"] == 0)
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: late).count == 2)
        let bad = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(F.token(3))", json: #"{"quiet_hours": {"start": "25:00", "end": "08:00"}}"#)
        #expect(bad.status == 422)
        #expect(paths(bad) == ["quiet_hours.start"])
    }
}
