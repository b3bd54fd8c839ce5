import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// Issue 36's "done means": the gateway on SQLite with its workers and the mock APNs, a 3-variant experiment with
/// a 10% holdout and a 30% test phase on 2,000 devices. The devices tap with known, seeded probabilities per variant
/// (A 5%, B 25%, C 5%), reported as the phones' outboxes report them (`POST /v1/apps/{app}/taps`, with the
/// payload's variant); the gateway's `now` is moved past `decide_after` (no wall-clock wait: the workers' next idle
/// round sees the decision due). Then: the test group's split is the assignment's, the verdict names B, the rest
/// got B, nobody two notifications, the holdout nothing, and the analysis equals ``ExperimentStatistics`` over
/// counts recomputed here from what the mock recorded.
@Suite(.timeLimit(.minutes(3)))
struct ExperimentEndToEndTests {
    typealias F = GatewayFixture

    static let devices = 2000
    static let tapRates = ["A": 0.05, "B": 0.25, "C": 0.05]

    @Test func aTestPhaseDecidesForTheBestVariantAndRollsItOutToTheRest() async throws {
        let start = Date()
        let clock = Locked(start)
        let fixture = try await GatewayFixture(now: { clock.withLock { $0 } })
        defer { Task { await fixture.stop() } }
        let tokens = (0..<Self.devices).map { String(format: "%064x", 0xE0_0000 + $0 * 7919) }
        let header =
            #"{"category": "message", "title": "Lunch", "variants": ["#
            + #"{"name": "A", "share": 30, "body": "Pizza?"}, {"name": "B", "share": 30, "body": "Pizza now!"}, "#
            + #"{"name": "C", "share": 30, "body": "Pizza at noon"}], "holdout": 10, "test_share": 30, "#
            + #""metric": "button:like", "decide_after": "PT1H"}"#
        let created = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: header + "\n" + tokens.joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        await fixture.mock.deliveriesSettled()

        // The test group got exactly the variants the assignment gives.
        let assignment = ExperimentAssignment(experiment: id, shares: [30, 30, 30], testShare: 30)
        let names = ["A", "B", "C"]
        var expectedTest: [String: String] = [:]
        var expectedRest: Set<String> = []
        var holdout: Set<String> = []
        for token in tokens {
            switch assignment.place(of: token) {
            case .holdout: holdout.insert(token)
            case .variant(let index):
                if assignment.inTestGroup(token) {
                    expectedTest[token] = names[index]
                } else {
                    expectedRest.insert(token)
                }
            }
        }
        let firstRound = try variants(fixture.mock.notifications, campaign: id)
        #expect(firstRound == expectedTest)

        // Each device of the test group taps `like` with its variant's probability (seeded, token order).
        var random = SplitMix64(seed: 36)
        var tappers: Set<String> = []
        for token in firstRound.keys.sorted() where random.nextUnit() < Self.tapRates[firstRound[token]!]! {
            tappers.insert(token)
        }
        let at = RFC3339.text(start + 60)
        for batch in stride(from: 0, to: tappers.count, by: 500) {
            let events = tappers.sorted()[batch..<min(batch + 500, tappers.count)].map { token in
                #"{"event_id": "tap-\#(token.suffix(8))", "token": "\#(token)", "notification": "\#(id)", "#
                    + #""campaign": "\#(id)", "variant": "\#(firstRound[token]!)", "category": "message", "#
                    + #""response": "button", "button": "like", "foreground": false, "latency_ms": 900, "at": "\#(at)"}"#
            }
            let posted = try await fixture.request(
                "POST", "/v1/apps/chat/taps", key: F.publishable,
                json: #"{"taps": [\#(events.joined(separator: ", "))]}"#)
            #expect(posted.status == 200, "\(posted.body)")
        }
        let before = try await fixture.request("GET", "/v1/campaigns/\(id)/experiment")
        #expect(before.json?.objectValue?["state"] == "testing")
        #expect(before.json?.objectValue?["verdict"] == .null, "no verdict before the decision")

        // An hour later by the gateway's clock: the decision is made and the rest is sent B.
        clock.withLock { $0 = start + 3601 }
        let store = try #require(fixture.gateway.store as? any ExperimentStore)
        await yieldUntil { (try? store.experiment(campaign: id))??.state == .rolledOut }
        _ = try await fixture.settled(id)
        await fixture.mock.deliveriesSettled()

        let report = try await fixture.request("GET", "/v1/campaigns/\(id)/experiment")
        #expect(report.status == 200, "\(report.body)")
        let object = try #require(report.json?.objectValue)
        let verdict = try #require(object["verdict"]?.objectValue)
        #expect(verdict["winner"] == "B", "\(report.body)")
        #expect(verdict["rolled_out"] == "B")
        #expect(object["rolled_out"] == "B")

        // Every notification the mock saw: each device once, the rest B, the holdout none.
        let all = fixture.mock.notifications.filter { campaignOf($0) == id }
        #expect(Set(all.map(\.deviceToken)).count == all.count, "nobody got two notifications")
        let everything = try variants(all, campaign: id)
        #expect(Set(everything.keys) == Set(expectedTest.keys).union(expectedRest))
        #expect(everything.keys.allSatisfy { !holdout.contains($0) })
        #expect(expectedRest.allSatisfy { everything[$0] == "B" })
        for notification in all where expectedRest.contains(notification.deviceToken) {
            let payload = try JSONParser.parse(notification.payload).objectValue
            #expect(payload?["aps"]?.objectValue?["alert"]?.objectValue?["body"] == "Pizza now!")
        }

        // The analysis is ExperimentStatistics over counts recomputed from the recordings and the draws.
        func arm(_ name: String) -> VariantCounts {
            let members = firstRound.filter { $0.value == name }.map(\.key)
            return VariantCounts(
                name: name, trials: members.count, successes: members.filter { tappers.contains($0) }.count)
        }
        let expected = ExperimentStatistics.analyze(
            control: arm("A"), treatments: [arm("B"), arm("C")],
            holdout: VariantCounts(name: "holdout", trials: holdout.count, successes: 0),
            plannedTrialsPerVariant: nil, confidence: 0.95, metric: "button:like")
        #expect(object["analysis"] == ExperimentService.encoded(expected))
        #expect(verdict == ExperimentService.encoded(expected.verdict(defaultVariant: "A")).objectValue)
    }

    private func campaignOf(_ notification: RecordedNotification) -> String? {
        (try? JSONParser.parse(notification.payload))?.objectValue?["pushbutton"]?.objectValue?["campaign"]?
            .stringValue
    }

    /// Each recorded notification of the campaign's token and the variant its payload names.
    private func variants(_ notifications: [RecordedNotification], campaign: String) throws -> [String: String] {
        var variants: [String: String] = [:]
        for notification in notifications where campaignOf(notification) == campaign {
            let actions = try JSONParser.parse(notification.payload).objectValue?["pushbutton"]?.objectValue
            variants[notification.deviceToken] = actions?["variant"]?.stringValue
        }
        return variants
    }
}
