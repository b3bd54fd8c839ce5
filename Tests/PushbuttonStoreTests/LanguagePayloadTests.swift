import Foundation
import Testing

@testable import PushbuttonStore

/// Recipients of a notification with `"localized"` text as intake stores them from migration `66-` on, on
/// SQLite and PostgreSQL alike: each names its language in its row, its payload is the language's (per
/// experiment variant), stored once per notification, a recipient with data of its own keeps its own, and a
/// lease reads each language's payload once per process.
@Suite(.timeLimit(.minutes(3)))
struct LanguagePayloadTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static let languages: [String?] = [nil, "fr", "de", "es", "it"]

    static func payload(_ language: String?, variant: String? = nil, name: String? = nil) -> [UInt8] {
        Array(#"{"aps":{"alert":"\#(variant ?? "")\#(language ?? "en") \#(name ?? "you")"}}"#.utf8)
    }

    /// Recipient `number`: languages in turn (default, fr, de, es, it); every tenth from the fourth (and the
    /// very first) with data of its own. A recipient's payload is a buffer of its own, as a page's lines are.
    static func delivery(_ number: Int, prefix: String = "c1") -> NewDelivery {
        let language = languages[number % languages.count]
        let personalized = number % 10 == 3 || number == 0
        return NewDelivery(
            token: String(format: "%064x", number + 1), apnsID: "\(prefix)-\(number)",
            payload: payload(language, name: personalized ? "n\(number)" : nil), language: language,
            personalized: personalized)
    }

    static func spec(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "chat", kind: .campaign, topic: "com.example.chat", createdAt: t0)
    }

    func count(_ store: SQLGatewayStore, _ sql: String) throws -> Int64? {
        try store.read { connection throws(StoreError) in try connection.query(sql) }.first?.first?.integer
    }

    /// Leases everything due and checks each recipient's payload against `expected` (by its `apns-id`).
    func leaseAndCheck(_ store: SQLGatewayStore, count: Int, expected: (String) -> [UInt8]) throws {
        let leased = try store.lease(limit: 2_000, duration: 30, now: Self.t0)
        #expect(leased.count == count)
        for delivery in leased {
            #expect(
                String(decoding: delivery.payload, as: UTF8.self)
                    == String(decoding: expected(delivery.apnsID), as: UTF8.self), "\(delivery.apnsID)")
        }
    }

    static func number(_ apnsID: String) -> Int { Int(apnsID.split(separator: "-")[1]) ?? -1 }

    @Test(arguments: StoreBackend.allCases)
    func eachLanguagesPayloadIsStoredOnceAndSentToItsRecipients(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        // 300 in the first request (COPY on PostgreSQL), 6 in a page (a multi-row INSERT).
        _ = try store.enqueue(
            Self.spec("c1"), deliveries: (0..<300).map { Self.delivery($0) }, idempotency: nil, now: Self.t0)
        #expect(try store.append(campaign: "c1", deliveries: (300..<306).map { Self.delivery($0) }, now: Self.t0) == 6)
        #expect(try count(store, "SELECT COUNT(*) FROM shared_payloads") == 1)
        #expect(try count(store, "SELECT COUNT(*) FROM language_payloads WHERE notification_id = 'c1'") == 4)
        // Only the recipients with data of their own have a row: the first one's is not the one shared.
        #expect(try count(store, "SELECT COUNT(*) FROM payloads") == 1 + 31)
        #expect(try count(store, "SELECT COUNT(*) FROM deliveries WHERE language = 'fr'") == 61)
        #expect(try count(store, "SELECT COUNT(*) FROM deliveries WHERE language IS NULL") == 62)
        try leaseAndCheck(store, count: 306) { Self.delivery(Self.number($0)).payload }
    }

    @Test(arguments: StoreBackend.allCases)
    func twoStoresTakingPagesOfOneCampaignAtOnceStoreOnePayloadPerLanguage(_ backend: StoreBackend) async throws {
        let (store, other) = try await backend.makeTwoStores()
        _ = try store.enqueue(Self.spec("c1"), deliveries: [], idempotency: nil, now: Self.t0)
        async let first = Blocking.run {
            try store.append(campaign: "c1", deliveries: (0..<200).map { Self.delivery($0) }, now: Self.t0)
        }
        async let second = Blocking.run {
            try other.append(campaign: "c1", deliveries: (200..<400).map { Self.delivery($0) }, now: Self.t0)
        }
        #expect(try await [first, second] == [200, 200])
        #expect(try count(store, "SELECT COUNT(*) FROM shared_payloads") == 1)
        #expect(try count(store, "SELECT COUNT(*) FROM language_payloads") == 4)
        #expect(try count(store, "SELECT COUNT(*) FROM payloads") == 1 + 40)
        try leaseAndCheck(store, count: 400) { Self.delivery(Self.number($0)).payload }
    }

    @Test(arguments: StoreBackend.allCases)
    func anExperimentsVariantsAreStoredOncePerLanguageAndCountedByVariant(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        // Odd numbers variant A, even B, each in the languages in turn; 3 with data of its own.
        func delivery(_ number: Int) -> NewDelivery {
            let variant = number % 2 == 1 ? "A" : "B"
            let language = Self.languages[number % 3]
            return NewDelivery(
                token: String(format: "%064x", number + 1), apnsID: "c1-\(number)",
                payload: Self.payload(language, variant: variant, name: number == 3 ? "Ann" : nil), variant: variant,
                language: language, personalized: number == 3)
        }
        let experiment = ExperimentRecord(
            campaignID: "c1", app: "chat", variants: ["A", "B"], control: "A", defaultVariant: "A",
            metric: "button:like", state: .running, decideAfter: nil)
        _ = try store.enqueue(
            Self.spec("c1"), experiment: experiment, deliveries: (0..<120).map(delivery), recipients: [],
            idempotency: nil, now: Self.t0)
        #expect(try count(store, "SELECT COUNT(*) FROM variant_payloads") == 2)
        #expect(try count(store, "SELECT COUNT(*) FROM language_payloads WHERE variant IN ('A', 'B')") == 4)
        #expect(try count(store, "SELECT COUNT(*) FROM payloads") == 1)
        #expect(try count(store, "SELECT COUNT(*) FROM shared_payloads") == 0, "no recipient outside the test")
        try leaseAndCheck(store, count: 120) { delivery(Self.number($0)).payload }
        let tallies = try store.experimentTallies(campaign: "c1", app: "chat")
        #expect(tallies.first { $0.variant == "A" && $0.phase == .test }?.recipients == 60)
        #expect(tallies.first { $0.variant == "B" && $0.phase == .test }?.recipients == 60)
        #expect(tallies.count == 2, "\(tallies)")
    }

    /// A second lease of the campaign reads its languages' payloads from what the first kept (shown by removing
    /// them from the table in between), and a notification's row that names no language reads its default.
    @Test(arguments: StoreBackend.allCases)
    func aLeaseReadsEachLanguagesPayloadOncePerProcess(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        _ = try store.enqueue(
            Self.spec("c1"), deliveries: (0..<100).map { Self.delivery($0) }, idempotency: nil, now: Self.t0)
        let first = try store.lease(limit: 50, duration: 30, now: Self.t0)
        #expect(first.count == 50)
        try store.with { connection throws(StoreError) in try connection.script("DELETE FROM language_payloads") }
        try leaseAndCheck(store, count: 50) { Self.delivery(Self.number($0)).payload }
    }
}
