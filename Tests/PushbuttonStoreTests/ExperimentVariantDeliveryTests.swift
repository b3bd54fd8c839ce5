import Foundation
import Pushbutton
import Testing

@testable import PushbuttonStore

/// An experiment's test recipients as intake stores them from migration `61-` on, on SQLite and PostgreSQL
/// alike: each delivery names its variant (no `experiment_recipients` row), its payload is the variant's, stored
/// once (a recipient with data of its own keeps its own), and the tallies count them by variant.
@Suite(.timeLimit(.minutes(3)))
struct ExperimentVariantDeliveryTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func token(_ number: Int) -> String { TapStoreTests.token(number) }
    static let payloadA = Array(#"{"aps":{"alert":"A"},"pushbutton.variant":"A"}"#.utf8)
    static let payloadB = Array(#"{"aps":{"alert":"B"},"pushbutton.variant":"B"}"#.utf8)
    static let own = Array(#"{"aps":{"alert":"A for Ann"},"pushbutton.variant":"A"}"#.utf8)

    /// Odd tokens variant A, even B; token 3 has a payload of its own.
    static func delivery(_ number: Int) -> NewDelivery {
        let variant = number % 2 == 1 ? "A" : "B"
        let payload = number == 3 ? own : variant == "A" ? payloadA : payloadB
        return NewDelivery(token: token(number), apnsID: "c1-\(number)", payload: payload, variant: variant)
    }

    /// Campaign `c1`: 100 test recipients in its first request (COPY on PostgreSQL), 6 in a second page (a
    /// multi-row INSERT), token 200 in the holdout.
    func campaign(_ store: SQLGatewayStore) throws {
        let spec = NotificationSpec(
            id: "c1", app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: Self.t0,
            request: Array(#"{"variants": []}"#.utf8))
        let experiment = ExperimentRecord(
            campaignID: "c1", app: "chat", variants: ["A", "B"], control: "A", defaultVariant: "A",
            metric: "button:like", state: .running, decideAfter: nil)
        let result = try store.enqueue(
            spec, experiment: experiment, deliveries: (1...100).map(Self.delivery),
            recipients: [ExperimentRecipient(token: Self.token(200), variant: nil, phase: .holdout)],
            idempotency: nil, now: Self.t0)
        #expect(result == .created(id: "c1"))
        let page = try store.append(
            campaign: "c1", deliveries: (101...106).map(Self.delivery), recipients: [], idempotency: nil,
            now: Self.t0)
        #expect(page == .added(6))
    }

    func count(_ store: SQLGatewayStore, _ sql: String) throws -> Int64? {
        try store.read { connection throws(StoreError) in try connection.query(sql) }.first?.first?.integer
    }

    @Test(arguments: StoreBackend.allCases)
    func eachVariantsPayloadIsStoredOnceAndSentToItsRecipients(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run { try campaign(store) }
        #expect(try count(store, "SELECT COUNT(*) FROM experiment_recipients") == 1)
        #expect(try count(store, "SELECT COUNT(*) FROM variant_payloads WHERE notification_id = 'c1'") == 2)
        // Only token 3's own payload has a row.
        #expect(try count(store, "SELECT COUNT(*) FROM payloads") == 1)
        let leased = try store.lease(limit: 500, duration: 30, now: Self.t0)
        #expect(leased.count == 106)
        for delivery in leased {
            let number = Int(delivery.token, radix: 16) ?? 0
            #expect(delivery.payload == Self.delivery(number).payload, "token \(number)")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func talliesCountTestRecipientsByTheirDeliverysVariant(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        try await Blocking.run { try campaign(store) }
        let leased = try store.lease(limit: 500, duration: 30, now: Self.t0)
        for delivery in leased {
            // Token 1 (A) and token 2 (B) are rejected.
            let outcome: DeliveryOutcome =
                [Self.token(1), Self.token(2)].contains(delivery.token)
                ? .rejected(status: 400, reason: "BadDeviceToken", unregisteredAt: nil) : .delivered
            try store.complete(delivery, outcome: outcome, attempts: 1, now: Self.t0 + 10)
        }
        func tap(_ event: String, _ number: Int, _ response: TapRecord.Response = .button) -> TapRecord {
            TapRecord(
                app: "chat", eventID: event, token: Self.token(number), notificationID: "c1", campaignID: "c1",
                variant: number % 2 == 1 ? "A" : "B", category: "message", response: response,
                button: response == .button ? "like" : nil, foreground: false, respondedAt: Self.t0 + 60)
        }
        _ = try store.record(
            taps: [
                tap("e1", 3), tap("e2", 3), tap("e3", 5), tap("e4", 4), tap("e5", 6, .body), tap("e6", 8, .dismiss),
            ],
            now: Self.t0 + 61)
        let tallies = try store.experimentTallies(campaign: "c1", app: "chat")
        #expect(
            tallies.first { $0.variant == "A" && $0.phase == .test }
                == ExperimentTally(
                    variant: "A", phase: .test, recipients: 53, delivered: 52, buttonTaps: ["like": 2], anyButton: 2))
        #expect(
            tallies.first { $0.variant == "B" && $0.phase == .test }
                == ExperimentTally(
                    variant: "B", phase: .test, recipients: 53, delivered: 52, buttonTaps: ["like": 1], anyButton: 1,
                    bodyTaps: 1, dismisses: 1))
        #expect(tallies.first { $0.phase == .holdout }?.recipients == 1)
    }
}
