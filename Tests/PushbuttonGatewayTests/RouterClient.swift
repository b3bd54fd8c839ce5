import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

@testable import PushbuttonGateway

/// An in-process client for the gateway's ``Router``, as hummingbird's router tests have: no socket, no h2o, no
/// mock APNs and no workers. The router is built over a SQLite store in a temporary directory and the fixture's
/// two apps, whose APNs client is absent (nothing sends: what is queued stays queued). `request` takes the same
/// arguments as ``GatewayFixture/request(_:_:key:json:headers:)``.
final class RouterClient: Sendable {
    typealias F = GatewayFixture

    /// One answer: the status, the body as text and as JSON (when it is JSON), and the headers.
    struct Answer: Sendable {
        var status: Int
        var json: JSONValue?
        var body: String
        var headers: [(name: String, value: String)]

        func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
    }

    let directory: String
    let store: SQLGatewayStore
    let metrics = GatewayMetrics()
    let router: Router

    /// `maximumRecipients` replaces the configuration's `limits.maxRecipients` when given.
    /// `configure` edits the configuration's text first (an app setting a test needs); `rateLimits` replaces every
    /// app's rate limits.
    init(
        now: @escaping @Sendable () -> Date = { Date() }, maximumRecipients: Int? = nil,
        rateLimits: RateLimits? = nil, configure: (String) -> String = { $0 }
    ) throws {
        directory = NSTemporaryDirectory() + "pushbutton-router-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try P256PrivateKey.generate().pemRepresentation.write(
            toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try F.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        let text = configure(
            F.configurationText(mockPort: 9, caFile: nil, webhookPort: nil, store: "sqlite:gateway.db", workers: 0))
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: directory)
        guard let configuration = parsed.configuration,
            let manifest = Manifest.parse(Array(F.manifest.utf8)).manifest
        else { throw F.FixtureError(description: "configuration: \(parsed.diagnostics)") }
        store = try SQLGatewayStore.sqlite(path: directory + "/gateway.db")
        var apps: [String: AppRuntime] = [:]
        for var app in configuration.apps {
            if let rateLimits { app.rateLimits = rateLimits }
            apps[app.id] = AppRuntime(configuration: app, validator: PayloadValidator(manifest: manifest), client: nil)
        }
        let services = GatewayServices(
            store: store, apps: apps, maximumRecipients: maximumRecipients ?? configuration.maximumRecipients,
            metrics: metrics, now: now)
        router = Router(
            services: services, keys: KeyRing(configuration.apps), metrics: metrics,
            console: ConsoleRoutes(apps: configuration.apps, secureCookies: false, now: now))
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The router's answer to one request; `path` may carry a query string.
    func request(
        _ method: String, _ path: String, key: String? = GatewayFixture.secret, json: String? = nil,
        headers: [String: String] = [:]
    ) -> Answer {
        var fields = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        if let key { fields["authorization"] = "Bearer \(key)" }
        let (path, query) = HTTPRequest.split(target: path)
        let response = router.handle(
            HTTPRequest(
                method: method, path: path, query: query, headers: fields, body: json.map { Array($0.utf8) } ?? []))
        return Answer(
            status: response.status, json: try? JSONParser.parse(response.body),
            body: String(decoding: response.body, as: UTF8.self), headers: response.headers)
    }
}
