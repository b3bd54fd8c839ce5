import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// Quiet hours re-checked when sent (issue 35), through the routes: a campaign queued at 21:00 in Paris (outside
/// the app's 22:00–08:00) but taken at 23:00 is held to 08:00 and counted `held`; one with
/// `ignore_quiet_hours` and a single notification are sent.
@Suite(.timeLimit(.minutes(3)))
struct QuietHoursAtLeaseRoutesTests {
    typealias F = GatewayFixture
    /// 2026-12-01T20:00:00Z: 21:00 in Paris.
    static let evening = Date(timeIntervalSince1970: 1_796_126_400 + 8 * 3600)

    @Test func aCampaignQueuedBeforeQuietHoursButSentInsideIsHeldToTheirEnd() throws {
        let fixture = try RouterClient(now: { Self.evening }) { text in
            text.replacingOccurrences(
                of: #"{"id": "chat", "#,
                with:
                    #"{"id": "chat", "quiet_hours": {"start": "22:00", "end": "08:00"}, "default_time_zone": "Europe/Paris", "#
            )
        }
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Hi"}"# + "\n" + F.token(1) + "\n" + F.token(2))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        #expect(created.json?.objectValue?["counts"]?.objectValue?["held"] == 0)
        let urgent = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: #"{"category": "message", "body": "Code 1234", "ignore_quiet_hours": true}"# + "\n" + F.token(1))
        #expect(urgent.status == 202, "\(urgent.body)")
        let single = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(2))"]}, "category": "message", "body": "Hi"}"#)
        #expect(single.status == 202, "\(single.body)")
        // 23:00 in Paris: a backlog taken only now.
        let late = Self.evening + 2 * 3600
        let sent = try fixture.store.lease(limit: 10, duration: 86_400, now: late)
        #expect(sent.count == 2)
        #expect(!sent.contains { $0.notificationID == id })
        let held = fixture.request("GET", "/v1/campaigns/\(id)")
        #expect(held.json?.objectValue?["counts"]?.objectValue?["held"] == 2, "\(held.body)")
        // 08:00 in Paris is 07:00Z on 12-02.
        let morning = Self.evening + 11 * 3600
        #expect(try fixture.store.nextDue(now: late) == morning)
        #expect(try fixture.store.lease(limit: 10, duration: 86_400, now: morning).map(\.notificationID) == [id, id])
    }
}
