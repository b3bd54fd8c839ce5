import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonStore

/// Issue 36's device side: a phone needs no change to report a variant. The payload's `pushbutton.variant` passes
/// through the receiver to the tap event its outbox sends, the gateway stores it with the tap, and the
/// experiment's counts put the tap under that variant.
@Suite(.timeLimit(.minutes(3)))
struct ExperimentPhoneTests {
    typealias F = GatewayFixture

    @Test func aSimulatedPhonesTapReportsItsVariant() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let options = OutboxOptions(baseBackoff: .milliseconds(20), maximumBackoff: .milliseconds(100))
        let phones = [
            try await SimulatedPhone(
                token: F.token(1), fixture: fixture, directory: fixture.directory, outboxOptions: options),
            try await SimulatedPhone(
                token: F.token(2), fixture: fixture, directory: fixture.directory, outboxOptions: options),
        ]
        // Registered (the client reports taps of its registered token).
        for phone in phones {
            #expect(try await phone.client.register(token: phone.token, locale: "fr-FR", appVersion: "2.0"))
            #expect(try await phone.drain().delivered == 1)
        }
        let campaign = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json:
                #"{"category": "message", "title": "Lunch", "variants": [{"name": "A", "share": 50, "body": "Pizza A"}, "#
                + #"{"name": "B", "share": 50, "body": "Pizza B"}]}"# + "\n"
                + phones.map(\.token).joined(separator: "\n"))
        #expect(campaign.status == 202, "\(campaign.body)")
        let id = try #require(campaign.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        await fixture.mock.deliveriesSettled()
        let assignment = ExperimentAssignment(experiment: id, shares: [50, 50], testShare: nil)
        var expected: [String: Int] = [:]
        for phone in phones {
            guard case .variant(let index) = assignment.place(of: phone.token) else {
                Issue.record("no holdout was asked for")
                continue
            }
            let name = ["A", "B"][index]
            expected[name, default: 0] += 1
            let shown = try await phone.shown(containing: "Pizza \(name)")
            _ = try await phone.center.tapButton(shown, action: "like")
            #expect(try await phone.drain().delivered == 1)
        }
        let store = try #require(fixture.gateway.store as? any ExperimentStore)
        let tallies = try store.experimentTallies(campaign: id, app: "chat")
        for (name, count) in expected {
            let tally = tallies.first { $0.variant == name && $0.phase == .test }
            #expect(tally?.delivered == count && tally?.buttonTaps["like"] == count, "\(name): \(tallies)")
        }
        // The stats answer per variant too.
        let stats = try await fixture.request("GET", "/v1/apps/chat/stats?campaign=\(id)")
        let perVariant = try #require(stats.json?.objectValue?["variants"]?.arrayValue, "\(stats.body)")
        for (name, count) in expected {
            let row = perVariant.first { $0.objectValue?["variant"]?.stringValue == name }?.objectValue
            #expect(row?["phase"] == "test")
            #expect(row?["taps"]?.objectValue?["buttons"]?.objectValue?["like"]?.integerValue == Int64(count))
        }
        // The tap as stored names the variant the device reported.
        let sql = try #require(fixture.gateway.store as? SQLGatewayStore)
        let rows = try sql.read { connection throws(StoreError) in
            try connection.query("SELECT token, variant FROM tap_events ORDER BY token")
        }
        #expect(rows.count == phones.count)
        for row in rows {
            guard case .text(let token) = row[0], case .variant(let index) = assignment.place(of: token) else {
                Issue.record("an unknown tap: \(row)")
                continue
            }
            #expect(row[1] == .text(["A", "B"][index]))
        }
    }
}
