import Foundation
import Pushbutton
import Testing

@testable import PushbuttonStore

/// Experiments in the store (issue 36), on SQLite and PostgreSQL alike: recipients' places beside their
/// deliveries, tallies per variant from one grouped query, the decision claimed once, the roll-out queuing each
/// waiting recipient once.
@Suite(.timeLimit(.minutes(3)))
struct ExperimentStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func token(_ number: Int) -> String { TapStoreTests.token(number) }

    /// A campaign `c1` of 10 devices: 1–4 variant A, 5–7 B (sent), 8 in the holdout, 9–10 waiting.
    func campaign(_ store: SQLGatewayStore) throws {
        let spec = NotificationSpec(
            id: "c1", app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: Self.t0,
            request: Array(#"{"variants": []}"#.utf8))
        let sent = (1...7).map {
            NewDelivery(token: Self.token($0), apnsID: "c1-\($0)", payload: Array(($0 <= 4 ? "{A}" : "{B}").utf8))
        }
        var places = (1...7).map {
            ExperimentRecipient(token: Self.token($0), variant: $0 <= 4 ? "A" : "B", phase: .test)
        }
        places.append(ExperimentRecipient(token: Self.token(8), variant: nil, phase: .holdout))
        places.append(ExperimentRecipient(token: Self.token(9), variant: nil, phase: .waiting))
        places.append(
            ExperimentRecipient(token: Self.token(10), variant: nil, phase: .waiting, data: Array(#"{"n": 1}"#.utf8)))
        let experiment = ExperimentRecord(
            campaignID: "c1", app: "chat", variants: ["A", "B"], control: "A", defaultVariant: "A",
            metric: "button:like", state: .testing, decideAfter: Self.t0 + 3600)
        let result = try store.enqueue(
            spec, experiment: experiment, deliveries: sent, recipients: places, idempotency: nil, now: Self.t0)
        #expect(result == .created(id: "c1"))
        let leased = try store.lease(limit: 100, duration: 30, now: Self.t0)
        #expect(leased.count == 7)
        for delivery in leased {
            // Token 4 is rejected: 3 of A's 4 are delivered.
            let outcome: DeliveryOutcome =
                delivery.token == Self.token(4)
                ? .rejected(status: 400, reason: "BadDeviceToken", unregisteredAt: nil) : .delivered
            try store.complete(delivery, outcome: outcome, attempts: 1, now: Self.t0 + 10)
        }
    }

    func tap(_ event: String, token: Int, response: TapRecord.Response = .button, button: String? = "like")
        -> TapRecord
    {
        TapRecord(
            app: "chat", eventID: event, token: Self.token(token), notificationID: "c1", campaignID: "c1",
            variant: token <= 4 ? "A" : "B", category: "message", response: response,
            button: response == .button ? button : nil, foreground: false,
            respondedAt: Self.t0 + 60)
    }

    @Test(arguments: StoreBackend.allCases)
    func talliesCountDevicesPerVariantAndPhase(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try campaign(store)
        _ = try store.record(
            taps: [
                tap("e1", token: 1), tap("e2", token: 1), tap("e3", token: 5), tap("e4", token: 6),
                tap("e5", token: 6, button: "reply"), tap("e6", token: 7, response: .body),
                tap("e7", token: 2, response: .dismiss),
            ], now: Self.t0 + 61)
        let tallies = try store.experimentTallies(campaign: "c1", app: "chat")
        let a = try #require(tallies.first { $0.variant == "A" && $0.phase == .test })
        let b = try #require(tallies.first { $0.variant == "B" && $0.phase == .test })
        #expect(
            a
                == ExperimentTally(
                    variant: "A", phase: .test, recipients: 4, delivered: 3, buttonTaps: ["like": 1], anyButton: 1,
                    dismisses: 1))
        #expect(
            b
                == ExperimentTally(
                    variant: "B", phase: .test, recipients: 3, delivered: 3, buttonTaps: ["like": 2, "reply": 1],
                    anyButton: 2, bodyTaps: 1))
        #expect(tallies.first { $0.phase == .holdout }?.recipients == 1)
        #expect(tallies.first { $0.phase == .waiting }?.recipients == 2)
        let record = try #require(try store.experiment(campaign: "c1"))
        #expect(record.variants == ["A", "B"] && record.state == .testing && record.metric == "button:like")
        #expect(try store.experiment(campaign: "c2") == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func theDecisionIsClaimedOnceAndTheRollOutQueuesEachWaitingRecipientOnce(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try campaign(store)
        #expect(try store.nextExperimentDecision(reclaimAfter: 600) == Self.t0 + 3600)
        #expect(try store.claimExperimentDecisions(now: Self.t0 + 3599, reclaimAfter: 600, limit: 10).isEmpty)
        let claimed = try store.claimExperimentDecisions(now: Self.t0 + 3600, reclaimAfter: 600, limit: 10)
        #expect(claimed.map(\.campaignID) == ["c1"] && claimed.first?.state == .deciding)
        // Claimed: neither another claim nor an early one gets it until the claim is stale.
        #expect(try store.claimExperimentDecisions(now: Self.t0 + 3601, reclaimAfter: 600, limit: 10).isEmpty)
        #expect(try store.claimExperimentDecision(campaign: "c1", now: Self.t0 + 3601) == nil)
        try store.recordDecision(
            campaign: "c1", rolledOut: "B", verdict: Array(#"{"winner":"B"}"#.utf8), now: Self.t0 + 3600)
        let decided = try #require(try store.experiment(campaign: "c1"))
        #expect(decided.state == .rollingOut && decided.rolledOut == "B" && decided.decidedAt == Self.t0 + 3600)
        #expect(decided.verdict == Array(#"{"winner":"B"}"#.utf8))
        let waiting = try store.waitingRecipients(campaign: "c1", after: nil, limit: 10)
        #expect(waiting.map(\.token) == [Self.token(9), Self.token(10)])
        #expect(waiting.last?.data == Array(#"{"n": 1}"#.utf8))
        let deliveries = waiting.map {
            NewDelivery(token: $0.token, apnsID: "roll-\($0.token.suffix(2))", payload: Array("{B}".utf8))
        }
        #expect(try store.rollOut(campaign: "c1", variant: "B", deliveries: deliveries, now: Self.t0 + 3600) == 2)
        // Again (a process resuming a roll-out): none is queued twice.
        #expect(try store.rollOut(campaign: "c1", variant: "B", deliveries: deliveries, now: Self.t0 + 3600) == 0)
        #expect(try store.waitingRecipients(campaign: "c1", after: nil, limit: 10).isEmpty)
        try store.finishRollOut(campaign: "c1", now: Self.t0 + 3600)
        #expect(try store.experiment(campaign: "c1")?.state == .rolledOut)
        #expect(try store.nextExperimentDecision(reclaimAfter: 600) == nil)
        let leased = try store.lease(limit: 100, duration: 30, now: Self.t0 + 3600)
        #expect(leased.map(\.token).sorted() == [Self.token(9), Self.token(10)])
        #expect(leased.allSatisfy { $0.payload == Array("{B}".utf8) })
        let tallies = try store.experimentTallies(campaign: "c1", app: "chat")
        #expect(tallies.first { $0.phase == .rolledOut }?.recipients == 2)
        #expect(tallies.first { $0.phase == .rolledOut }?.variant == "B")
    }

    @Test(arguments: StoreBackend.allCases)
    func aStaleClaimIsTakenOverAndATapKeepsItsVariant(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try campaign(store)
        _ = try store.claimExperimentDecisions(now: Self.t0 + 3600, reclaimAfter: 600, limit: 10)
        #expect(try store.nextExperimentDecision(reclaimAfter: 600) == Self.t0 + 4200)
        let again = try store.claimExperimentDecisions(now: Self.t0 + 4200, reclaimAfter: 600, limit: 10)
        #expect(again.map(\.state) == [.deciding])
        _ = try store.record(taps: [tap("e1", token: 5)], now: Self.t0)
        let rows = try store.read { connection throws(StoreError) in
            try connection.query("SELECT variant FROM tap_events WHERE event_id = 'e1'")
        }
        #expect(rows.first?.first == .text("B"))
    }
}
