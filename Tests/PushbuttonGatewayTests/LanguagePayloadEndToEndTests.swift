import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway
@testable import PushbuttonStore

/// Issue 35's "in which language", stored as it is sent: the gateway with its workers and the mock APNs, on SQLite
/// and PostgreSQL. A campaign in two pages (its first line with data of its own), a notification to a tag and an
/// experiment, each with `localized` text, store each language's payload once (the rows counted in the store),
/// and every device gets its language's text.
@Suite(.timeLimit(.minutes(3)))
struct LanguagePayloadEndToEndTests {
    typealias F = GatewayFixture

    /// Device `number`'s locale: these in turn (none for every sixth).
    static let locales: [String?] = ["fr-CA", "de-CH", "es", "it-IT", "en-US", nil]
    static let devices = 36

    /// The campaign's text in device `number`'s language.
    static func text(_ number: Int, name: String = "you") -> String {
        switch locales[number % locales.count] {
        case "fr-CA": "Salut \(name)"
        case "de-CH": "Hallo \(name)"
        case "es": "Hola \(name)"
        case "it-IT": "Ciao \(name)"
        default: "Hi \(name)"
        }
    }

    /// A gateway on a fresh store of `backend`'s, devices 1…36 registered with ``locales`` and the tag `beta`.
    struct Running {
        let fixture: GatewayFixture
        let store: SQLGatewayStore
        let cluster: PostgresTestCluster?
        let directory: String

        static func start(_ backend: String) async throws -> Running {
            let directory = NSTemporaryDirectory() + "pushbutton-languages-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var cluster: PostgresTestCluster?
            let store: SQLGatewayStore
            if backend == "postgres" {
                let started = try await Blocking.run { try PostgresTestCluster() }
                cluster = started
                store = try await Blocking.run {
                    try SQLGatewayStore.postgres(url: try started.freshDatabase(), connections: 2)
                }
            } else {
                store = try SQLGatewayStore.sqlite(path: directory + "/gateway.db")
            }
            let fixture = try await GatewayFixture(store: store)
            for number in 1...LanguagePayloadEndToEndTests.devices {
                let locales = LanguagePayloadEndToEndTests.locales
                let locale = locales[number % locales.count].map { #""locale": "\#($0)", "# } ?? ""
                let answer = try await fixture.request(
                    "PUT", "/v1/apps/chat/devices/\(GatewayFixture.token(number))", key: GatewayFixture.publishable,
                    json: #"{\#(locale)"tags": ["beta"]}"#)
                #expect(answer.status < 300, "\(answer.body)")
            }
            return Running(fixture: fixture, store: store, cluster: cluster, directory: directory)
        }

        func stop() async {
            await fixture.stop()
            cluster?.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Rows of `table` of notification `id` (`payloads` through their deliveries).
        func rows(_ table: String, of id: String) throws -> Int64? {
            let sql =
                table == "payloads"
                ? "SELECT COUNT(*) FROM payloads p JOIN deliveries d ON d.id = p.delivery_id WHERE d.notification_id = ?"
                : "SELECT COUNT(*) FROM \(table) WHERE notification_id = ?"
            return try store.read { connection throws(StoreError) in try connection.query(sql, [.text(id)]) }
                .first?.first?.integer
        }

        /// The body each device of notification `id` was sent, by token, once it is settled.
        func bodies(of id: String) async throws -> [String: String] {
            _ = try await fixture.settled(id)
            await fixture.mock.deliveriesSettled()
            var bodies: [String: String] = [:]
            for notification in fixture.mock.notifications {
                let payload = try JSONParser.parse(notification.payload).objectValue
                guard payload?["pushbutton"]?.objectValue?["id"]?.stringValue == id else { continue }
                #expect(bodies[notification.deviceToken] == nil, "one notification per device")
                bodies[notification.deviceToken] =
                    payload?["aps"]?.objectValue?["alert"]?.objectValue?["body"]?.stringValue
            }
            return bodies
        }
    }

    @Test(arguments: ["sqlite", "postgres"])
    func aCampaignAndANotificationStoreEachLanguagesPayloadOnce(_ backend: String) async throws {
        let running = try await Running.start(backend)
        let fixture = running.fixture
        let header =
            #"{"category": "message", "title": "Lunch", "body": "Hi {{name}}", "data": {"name": "you"}, "localized": "#
            + #"{"fr": {"body": "Salut {{name}}"}, "de": {"body": "Hallo {{name}}"}, "es": {"body": "Hola {{name}}"}, "#
            + #""it": {"body": "Ciao {{name}}"}}}"#
        let first = [#"{"token": "\#(F.token(1))", "data": {"name": "Ann"}}"#] + (2...18).map { F.token($0) }
        let created = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: ([header] + first).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let page = try await fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients",
            json: (19...Self.devices).map { F.token($0) }.joined(separator: "\n"))
        #expect(page.status == 202, "\(page.body)")
        let bodies = try await running.bodies(of: id)
        #expect(bodies.count == Self.devices)
        for number in 1...Self.devices {
            #expect(bodies[F.token(number)] == Self.text(number, name: number == 1 ? "Ann" : "you"), "device \(number)")
        }
        // The default text and four languages once each; only the line with data of its own has a row.
        #expect(try running.rows("shared_payloads", of: id) == 1)
        #expect(try running.rows("language_payloads", of: id) == 4)
        #expect(try running.rows("payloads", of: id) == 1)

        // A notification to a tag: its two languages once each, no recipient with a row of its own.
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tag": "beta"}, "category": "message", "body": "Hello", "#
                + #""localized": {"fr": {"body": "Bonjour"}, "de": {"body": "Guten Tag"}}}"#)
        #expect(sent.status == 202, "\(sent.body)")
        let notification = try #require(sent.json?.objectValue?["id"]?.stringValue)
        let greetings = try await running.bodies(of: notification)
        for number in 1...Self.devices {
            let expected = ["fr-CA": "Bonjour", "de-CH": "Guten Tag"][Self.locales[number % Self.locales.count] ?? ""]
            #expect(greetings[F.token(number)] == expected ?? "Hello", "device \(number)")
        }
        #expect(try running.rows("shared_payloads", of: notification) == 1)
        #expect(try running.rows("language_payloads", of: notification) == 2)
        #expect(try running.rows("payloads", of: notification) == 0)
        await running.stop()
    }

    /// An experiment's variants, each with its French text: every device gets its variant in its language, each
    /// variant's payload is stored once per language, and the variants' counts are the assignment's.
    @Test(arguments: ["sqlite", "postgres"])
    func anExperimentStoresEachVariantsPayloadOncePerLanguage(_ backend: String) async throws {
        let running = try await Running.start(backend)
        let header =
            #"{"category": "message", "title": "Lunch", "data": {"name": "you"}, "metric": "button:like", "variants": ["#
            + #"{"name": "A", "share": 50, "body": "Pizza, {{name}}?", "localized": {"fr": {"body": "Pizza, {{name}} ?"}}}, "#
            + #"{"name": "B", "share": 50, "body": "Pasta, {{name}}?", "localized": {"fr": {"body": "Pâtes, {{name}} ?"}}}]}"#
        let lines = [#"{"token": "\#(F.token(1))", "data": {"name": "Ann"}}"#] + (2...Self.devices).map { F.token($0) }
        let created = try await running.fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: ([header] + lines).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let bodies = try await running.bodies(of: id)
        let assignment = ExperimentAssignment(experiment: id, shares: [50, 50], testShare: nil)
        var sent: [String: Int] = [:]
        var shared: Set<String> = []
        for number in 1...Self.devices {
            guard case .variant(let index) = assignment.place(of: F.token(number)) else {
                Issue.record("device \(number) is not in a variant")
                continue
            }
            let french = Self.locales[number % Self.locales.count] == "fr-CA"
            let name = number == 1 ? "Ann" : "you"
            let food = index == 0 ? "Pizza" : french ? "Pâtes" : "Pasta"
            #expect(
                bodies[F.token(number)] == (french ? "\(food), \(name) ?" : "\(food), \(name)?"), "device \(number)")
            sent[index == 0 ? "A" : "B", default: 0] += 1
            if number > 1 { shared.insert("\(index) \(french)") }
        }
        #expect(try running.rows("variant_payloads", of: id) == Int64(shared.filter { $0.hasSuffix("false") }.count))
        #expect(try running.rows("language_payloads", of: id) == Int64(shared.filter { $0.hasSuffix("true") }.count))
        #expect(try running.rows("payloads", of: id) == 1)
        #expect(try running.rows("shared_payloads", of: id) == 0)
        let tallies = try running.store.experimentTallies(campaign: id, app: "chat")
        for (variant, count) in sent {
            #expect(tallies.first { $0.variant == variant && $0.phase == .test }?.delivered == count, "\(variant)")
        }
        await running.stop()
    }
}
