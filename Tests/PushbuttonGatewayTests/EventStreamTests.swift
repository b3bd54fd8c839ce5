import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// The event stream end to end (issue 35): a campaign sent through the mock APNs and a tap reported, streamed
/// to the webhook in signed batches `{"events": [...]}`, only the configured types; and the setting's checks.
@Suite(.timeLimit(.minutes(2)))
struct EventStreamTests {
    typealias F = GatewayFixture

    /// The stream's events received so far (webhook requests with an `events` array).
    func streamed(_ webhook: WebhookReceiver) throws -> [[String: JSONValue]] {
        try webhook.events.flatMap { event -> [[String: JSONValue]] in
            guard WebhookSignature.verify(event.signature ?? "", secret: F.webhookSecret, body: event.body) else {
                throw F.FixtureError(description: "an unsigned batch")
            }
            return (try JSONParser.parse(event.body)).objectValue?["events"]?.arrayValue?.compactMap(\.objectValue)
                ?? []
        }
    }

    @Test func aCampaignAndATapAreStreamedInSignedBatches() async throws {
        let fixture = try await GatewayFixture(
            events: #"{"types": ["notification.sent", "campaign.finished", "tap"], "batch": 2}"#)
        defer { Task { await fixture.stop() } }
        let tokens = [F.token(1), F.token(2)]
        for token in tokens { fixture.mock.registry.register(token: token, topic: F.topic) }
        let created = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Hi"}"# + "\n" + tokens.joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let campaign = try #require(created.json?.objectValue?["id"]?.stringValue)
        let tap = try await fixture.request(
            "POST", "/v1/apps/chat/taps", key: F.publishable,
            json: """
                {"taps": [{"event_id": "ev-1", "token": "\(tokens[0])", "notification": "\(campaign)", "campaign": "\(campaign)",
                  "category": "message", "response": "button", "button": "like", "foreground": false,
                  "latency_ms": 900, "at": "2027-01-15T08:00:00Z"}]}
                """)
        #expect(tap.status == 200, "\(tap.body)")
        guard tap.status == 200 else { return }
        // Four events (two sent, the campaign's end, the tap), at most two a request.
        var requests = 1
        while try streamed(fixture.webhook).count < 4, requests <= 4 {
            #expect(await fixture.webhook.wait(for: requests))
            requests += 1
        }
        let events = try streamed(fixture.webhook)
        #expect(events.count == 4, "\(events)")
        #expect(
            fixture.webhook.events.allSatisfy { event in
                ((try? JSONParser.parse(event.body))?.objectValue?["events"]?.arrayValue?.count ?? 0) <= 2
            })
        let types = events.compactMap { $0["type"]?.stringValue }
        #expect(types.filter { $0 == "notification.sent" }.count == 2)
        let finished = try #require(events.first { $0["type"] == "campaign.finished" })
        #expect(finished["campaign_id"]?.stringValue == campaign)
        #expect(finished["counts"]?.objectValue?["delivered"] == 2)
        let tapped = try #require(events.first { $0["type"] == "tap" })
        #expect(tapped["id"] == "tap:ev-1" && tapped["button"] == "like" && tapped["latency_ms"] == 900)
        #expect(
            events.allSatisfy { $0["id"]?.stringValue != nil && $0["at"]?.integerValue != nil && $0["app"] == "chat" })
    }

    @Test func theSettingIsChecked() throws {
        let directory = NSTemporaryDirectory() + "pushbutton-events-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try F.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        let text = GatewayFixture.configurationText(
            mockPort: 9, caFile: nil, webhookPort: 8, store: "sqlite:gateway.db",
            events: #"{"types": ["notification.sentt"], "batch": 0, "url": "ftp://x"}"#)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
        let paths = Set(parsed.diagnostics.map(\.path.description))
        #expect(
            paths.isSuperset(of: ["webhook.events.types[0]", "webhook.events.batch", "webhook.events.url"]), "\(paths)")
        let on = GatewayConfiguration.parse(
            Array(
                GatewayFixture.configurationText(
                    mockPort: 9, caFile: nil, webhookPort: 8, store: "sqlite:gateway.db", events: "true"
                ).utf8), baseDirectory: directory)
        #expect(on.configuration?.webhook?.events == EventStreamConfiguration(), "\(on.diagnostics)")
    }
}
