import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A gateway on SQLite (or a given store) with two apps, sending to an in-process mock APNs, and a webhook
/// receiver that records what it is told.
struct GatewayFixture {
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let topic = "com.example.chat"
    static let secret = "pb_sk_chat_test_secret"
    static let publishable = "pb_pk_chat_test_publishable"
    static let otherSecret = "pb_sk_other_test_secret"
    static let webhookSecret = "webhook-secret-0123456789"

    static let manifest = """
        {"version": 1, "defaultLocale": "en", "categories": [{"identifier": "message", "actions": [
          {"identifier": "like", "title": "Like"},
          {"identifier": "open", "title": "Open", "options": ["foreground"]}]}]}
        """

    let directory: String
    let mock: MockAPNs
    let gateway: Gateway
    let webhook: WebhookReceiver
    var base: String { "http://127.0.0.1:\(gateway.port)" }

    /// The configuration file's text for this fixture (also parsed by the tests of the configuration).
    /// `apnsTimeoutSeconds` is the most allowed: no test here times an APNs request out (the ones that do inject
    /// a clock), and under the thread sanitizer at load 10 a 5-second timeout fired on requests the mock was
    /// still answering; the retry reached the mock too, which then recorded a device's notification twice (CI's
    /// tsan step failed on it twice, in the experiment and the PostgreSQL crash tests).
    static func configurationText(
        mockPort: Int, caFile: String?, webhookPort: Int?, store: String, workers: Int = 2, events: String? = nil
    ) -> String {
        let stream = events.map { #", "events": \#($0)"# } ?? ""
        let ca = caFile.map { #", "ca": "\#($0)""# } ?? ""
        let webhook =
            webhookPort.map {
                #""webhook": {"url": "http://127.0.0.1:\#($0)/events", "secret": "\#(webhookSecret)"\#(stream)},"#
            } ?? ""
        return """
            {
              "listen": {"host": "127.0.0.1", "port": 0},
              "store": "\(store)",
              \(webhook)
              "workers": {"count": \(workers), "batchSize": 200, "leaseSeconds": 30, "pollMilliseconds": 20, "apnsTimeoutSeconds": 600},
              "limits": {"maxBodyBytes": 4194304, "maxRecipients": 5000},
              "apps": [
                {"id": "chat", "topic": "\(topic)", "manifest": "manifest.json",
                 "environment": {"host": "127.0.0.1", "port": \(mockPort)\(ca)},
                 "auth": {"key": "AuthKey.p8", "keyId": "\(keyID)", "teamId": "\(teamID)"},
                 "secretKeys": ["\(APIKey.digestText(of: secret))"],
                 "publishableKeys": ["\(APIKey.digestText(of: publishable))"]},
                {"id": "other", "topic": "com.example.other", "manifest": "manifest.json",
                 "environment": {"host": "127.0.0.1", "port": \(mockPort)\(ca)},
                 "auth": {"key": "AuthKey.p8", "keyId": "\(keyID)", "teamId": "\(teamID)"},
                 "secretKeys": ["\(APIKey.digestText(of: otherSecret))"]}
              ]
            }
            """
    }

    init(
        store: (any GatewayStore)? = nil, workers: Int = 2, failingWebhooks: Int = 0, faults: FaultPlan = .none,
        now: (@Sendable () -> Date)? = nil, events: String? = nil
    ) async throws {
        directory = NSTemporaryDirectory() + "pushbutton-gateway-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let key = try P256PrivateKey.generate()
        try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try Self.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .selfSigned(directory: directory + "/tls"),
                keys: [try MockProviderKey(keyID: Self.keyID, teamID: Self.teamID, privateKey: key)], faults: faults))
        webhook = try WebhookReceiver(failing: failingWebhooks)
        let text = Self.configurationText(
            mockPort: mock.port, caFile: mock.caFile, webhookPort: webhook.server.port, store: "sqlite:gateway.db",
            workers: workers, events: events)
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
        guard let configuration = parsed.configuration else {
            throw FixtureError(description: "configuration: \(parsed.diagnostics)")
        }
        if let now {
            gateway = try await Gateway.start(configuration, store: store, now: now)
        } else {
            gateway = try await Gateway.start(configuration, store: store)
        }
    }

    func stop() async {
        await gateway.stop()
        await mock.stop()
        await webhook.server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    struct FixtureError: Error, CustomStringConvertible { var description: String }

    /// One HTTP/1.1 request with URLSession: status, parsed JSON body (when it is JSON) and raw body.
    func request(
        _ method: String, _ path: String, key: String? = GatewayFixture.secret, json: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (status: Int, json: JSONValue?, body: String) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json { request.httpBody = Data(json.utf8) }
        let (data, response) = try await TestHTTP.session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, try? JSONParser.parse(Array(data)), String(decoding: data, as: UTF8.self))
    }

    /// Polls a notification until none of its recipients is queued or leased. The default bound is the suites'
    /// time limit less a margin, not a speed claim: full CI runs saw every gateway of the process stall for 20–40 s
    /// at once (its two cooperative threads busy elsewhere), and a 20 s bound failed tests that would have passed.
    func settled(_ id: String, timeout: Duration = .seconds(150)) async throws -> JSONValue {
        var seen: (object: [String: JSONValue], body: String) = ([:], "")
        // The gateway's workers move the recipients through the store, which offers no signal: polled.
        let settled = try await Poll.until(every: .milliseconds(20), within: timeout) {
            let (status, json, body) = try await request("GET", "/v1/notifications/\(id)")
            guard status == 200, let object = json?.objectValue, let counts = object["counts"]?.objectValue else {
                throw FixtureError(description: "GET /v1/notifications/\(id): \(status) \(body)")
            }
            seen = (object, body)
            return counts["queued"]?.integerValue == 0 && counts["leased"]?.integerValue == 0
        }
        guard settled else { throw FixtureError(description: "not settled: \(seen.body)") }
        return .object(seen.object)
    }

    /// A distinct token per number.
    static func token(_ number: Int) -> String { String(format: "%064x", 0xAB00 + number) }
}

/// An HTTP server that records each webhook request (body and signature) and answers 200.
final class WebhookReceiver: Sendable {
    typealias Event = (body: [UInt8], signature: String?, idempotencyKey: String?)
    final class Events: Sendable {
        let list = Locked<[Event]>([])
        let refused = Locked(0)
        let changed = ChangeSignal()
    }
    let server: HTTPServer
    private let received = Events()

    /// Answers the first `failing` requests with 503 (not recorded), then records and answers 200.
    init(failing: Int = 0) throws {
        let received = self.received
        server = try HTTPServer(HTTPServerOptions(port: 0)) { request in
            let refuse = received.refused.withLock { count in
                count += 1
                return count <= failing
            }
            if refuse { return .text(503, "try later") }
            received.list.withLock {
                $0.append((request.body, request.header("x-pushbutton-signature"), request.header("idempotency-key")))
            }
            received.changed.notify()
            return .text(200, "ok")
        }
    }

    /// Requests answered so far, refused ones included.
    var attempts: Int { received.refused.withLock { $0 } }

    var events: [Event] { received.list.withLock { $0 } }

    /// Waits until `count` events arrived (told by the server's handler; the suite's time limit bounds it).
    func wait(for count: Int) async -> Bool {
        await received.changed.wait { events.count >= count }
        return events.count >= count
    }
}
