import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// Issue 35's frequency cap and single-send quiet hours through the routes (in process, SQLite, an injected
/// `now`): the app's `frequency_cap` read from its configuration entry (bad ones refused with their path), a
/// campaign's recipients over it skipped and counted by reason, single notifications exempt unless they opt in,
/// and `"quiet_hours": true` holding a single notification.
@Suite(.timeLimit(.minutes(3)))
struct FrequencyCapRoutesTests {
    typealias F = GatewayFixture
    /// 2026-12-01T12:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_796_126_400)

    func counts(_ answer: RouterClient.Answer) -> [String: JSONValue] {
        answer.json?.objectValue?["counts"]?.objectValue ?? [:]
    }

    /// A gateway whose app `chat` has `settings` in its entry.
    func fixture(_ settings: String, now: Date = now) throws -> RouterClient {
        try RouterClient(now: { now }) { text in
            text.replacingOccurrences(of: #"{"id": "chat", "#, with: #"{"id": "chat", \#(settings), "#)
        }
    }

    /// Leases what is due now and records it delivered; the tokens sent.
    func deliverDue(_ fixture: RouterClient, at now: Date) throws -> [String] {
        let leased = try fixture.store.lease(limit: 100, duration: 60, now: now)
        _ = try fixture.store.complete(leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, now: now)
        return leased.map(\.token).sorted()
    }

    @Test func campaignRecipientsOverTheAppsCapAreSkippedWithTheReason() throws {
        let fixture = try fixture(#""frequency_cap": {"max": 1, "per_hours": 24}"#)
        let first = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: #"{"category": "message", "body": "One"}"# + "\n" + F.token(1))
        #expect(first.status == 202, "\(first.body)")
        #expect(try deliverDue(fixture, at: Self.now) == [F.token(1)])
        let second = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Two"}"# + "\n" + F.token(1) + "\n" + F.token(2))
        let id = try #require(second.json?.objectValue?["id"]?.stringValue)
        #expect(try deliverDue(fixture, at: Self.now) == [F.token(2)])
        let read = fixture.request("GET", "/v1/campaigns/\(id)")
        #expect(counts(read)["skipped"] == 1, "\(read.body)")
        #expect(counts(read)["delivered"] == 1)
        #expect(read.json?.objectValue?["skipped_reasons"] == ["frequency_cap": 1])
        // Transactional: exempt, unless it opts in.
        let single = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Code"}"#)
        #expect(single.status == 202, "\(single.body)")
        #expect(try deliverDue(fixture, at: Self.now) == [F.token(1)])
        let optedIn = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "News", "frequency_cap": true}"#
        )
        let optedID = try #require(optedIn.json?.objectValue?["id"]?.stringValue)
        #expect(try deliverDue(fixture, at: Self.now).isEmpty)
        let skipped = fixture.request("GET", "/v1/notifications/\(optedID)")
        #expect(counts(skipped)["skipped"] == 1, "\(skipped.body)")
        #expect(skipped.json?.objectValue?["skipped_reasons"] == ["frequency_cap": 1])
        let bad = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "x", "frequency_cap": 3}"#)
        #expect(bad.status == 422)
        #expect(bad.body.contains("frequency_cap"))
    }

    /// An experiment's campaign is a campaign: held to the app's cap (its own intake path builds its row), and
    /// with `"quiet_hours": false` not held by quiet hours.
    @Test func anExperimentCampaignIsHeldToTheCapAndMayIgnoreQuietHours() throws {
        let late = Self.now + 10 * 3600
        let fixture = try fixture(
            #""frequency_cap": {"max": 1, "per_hours": 24}, "quiet_hours": {"start": "22:00", "end": "08:00"}, "#
                + #""default_time_zone": "Europe/Paris""#, now: late)
        let variants =
            #""variants": [{"name": "A", "share": 50, "body": "A"}, {"name": "B", "share": 50, "body": "B"}]"#
        let first = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "One", "quiet_hours": false}"# + "\n" + F.token(1))
        #expect(first.status == 202, "\(first.body)")
        #expect(try deliverDue(fixture, at: late) == [F.token(1)])
        let experiment = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", \#(variants), "quiet_hours": false}"# + "\n" + F.token(1) + "\n"
                + F.token(2))
        #expect(experiment.status == 202, "\(experiment.body)")
        #expect(counts(experiment)["held"] == 0, "\(experiment.body)")
        let id = try #require(experiment.json?.objectValue?["id"]?.stringValue)
        #expect(try deliverDue(fixture, at: late) == [F.token(2)])
        let read = fixture.request("GET", "/v1/campaigns/\(id)")
        #expect(counts(read)["skipped"] == 1, "\(read.body)")
        #expect(read.json?.objectValue?["skipped_reasons"] == ["frequency_cap": 1])
        // Without `"quiet_hours": false`, held until 08:00 like any campaign.
        let held = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: #"{"category": "message", \#(variants)}"# + "\n" + F.token(3))
        #expect(counts(held)["held"] == 1, "\(held.body)")
    }

    @Test func aBadFrequencyCapIsRefusedWithItsPath() throws {
        let base = NSTemporaryDirectory() + "pushbutton-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try F.manifest.write(toFile: base + "/manifest.json", atomically: true, encoding: .utf8)
        for (settings, path) in [
            (#""frequency_cap": {"max": 0, "per_hours": 24}"#, "apps[0].frequency_cap.max"),
            (#""frequency_cap": {"max": 3}"#, "apps[0].frequency_cap.per_hours"),
            (#""frequency_cap": {"max": 3, "per_hours": 24, "per_day": 1}"#, "apps[0].frequency_cap.per_day"),
            (#""frequency_cap": 3"#, "apps[0].frequency_cap"),
        ] {
            let text = F.configurationText(mockPort: 2197, caFile: "ca.pem", webhookPort: 9000, store: "sqlite:g.db")
                .replacingOccurrences(of: #"{"id": "chat", "#, with: #"{"id": "chat", \#(settings), "#)
            let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
            #expect(parsed.configuration == nil, "\(settings)")
            #expect(parsed.diagnostics.map(\.path.description).contains(path), "\(settings): \(parsed.diagnostics)")
        }
        let text = F.configurationText(mockPort: 2197, caFile: "ca.pem", webhookPort: 9000, store: "sqlite:g.db")
            .replacingOccurrences(
                of: #"{"id": "chat", "#, with: #"{"id": "chat", "frequency_cap": {"max": 3, "per_hours": 24}, "#)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        let configuration = try #require(parsed.configuration, "\(parsed.diagnostics)")
        #expect(configuration.apps[0].frequencyCap == FrequencyCap(max: 3, window: 24 * 3600))
    }

    /// Quiet hours 22:00–08:00 in Paris at 23:00: a single notification that says `"quiet_hours": true` is
    /// held until 08:00 (counted `held`), one that does not is sent at once.
    @Test func aSingleNotificationOptsIntoQuietHours() throws {
        let late = Self.now + 10 * 3600
        let fixture = try fixture(
            #""quiet_hours": {"start": "22:00", "end": "08:00"}, "default_time_zone": "Europe/Paris""#, now: late)
        let held = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "News", "quiet_hours": true}"#
        )
        #expect(held.status == 202, "\(held.body)")
        #expect(counts(held)["held"] == 1)
        #expect(try fixture.store.lease(limit: 10, duration: 60, now: late).isEmpty)
        let morning = Self.now + 19 * 3600
        #expect(try fixture.store.nextDue(now: late) == morning)
        let urgent = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Code"}"#)
        #expect(counts(urgent)["held"] == 0)
        #expect(try deliverDue(fixture, at: late) == [F.token(1)])
        let heldID = try #require(held.json?.objectValue?["id"]?.stringValue)
        #expect(try fixture.store.lease(limit: 10, duration: 60, now: morning).map(\.notificationID) == [heldID])
    }
}
