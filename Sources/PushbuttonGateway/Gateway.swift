internal import CH2O
import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

/// `pushbutton serve` as a library: the HTTP API, the store, the workers and the webhook, started together
/// from a ``GatewayConfiguration`` and stopped together.
public final class Gateway: Sendable {
    public let configuration: GatewayConfiguration
    /// The port the API listens on (the chosen one when the configuration says 0).
    public let port: Int
    public let metrics: GatewayMetrics
    public let store: any GatewayStore
    let server: HTTPServer
    let apps: [String: AppRuntime]
    let workers: DeliveryWorkers
    let background: Task<Void, Never>
    /// The workers' wake-ups from the store's committed intakes; cancelled at ``stop()``.
    let wakeOnCommit: WorkObservation
    let drain: DrainState

    /// Why the gateway could not start: a manifest with errors, an unreadable key, the store or the port.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    init(
        configuration: GatewayConfiguration, port: Int, metrics: GatewayMetrics, store: any GatewayStore,
        server: HTTPServer, apps: [String: AppRuntime], workers: DeliveryWorkers, background: Task<Void, Never>,
        wakeOnCommit: WorkObservation, drain: DrainState
    ) {
        self.wakeOnCommit = wakeOnCommit
        self.drain = drain
        self.configuration = configuration
        self.port = port
        self.metrics = metrics
        self.store = store
        self.server = server
        self.apps = apps
        self.workers = workers
        self.background = background
    }

    /// Opens the store named by the configuration.
    public static func openStore(_ location: String, connections: Int) throws(StartError) -> any GatewayStore {
        do {
            if location.hasPrefix("sqlite:") { return try SQLGatewayStore.sqlite(path: String(location.dropFirst(7))) }
            return try SQLGatewayStore.postgres(url: location, connections: connections)
        } catch {
            throw StartError(message: "the store: \(error)")
        }
    }

    /// Starts everything. `store` replaces the configured one (tests share one store between gateways).
    public static func start(
        _ configuration: GatewayConfiguration, store given: (any GatewayStore)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(StartError) -> Gateway {
        try await start(configuration, store: given, now: now, pollClock: AnyDurationClock(ContinuousClock()))
    }

    /// ``start(_:store:now:)`` with the clock that times the workers' fallback poll (tests drive a manual one).
    static func start(
        _ configuration: GatewayConfiguration, store given: (any GatewayStore)?,
        now: @escaping @Sendable () -> Date, pollClock: AnyDurationClock
    ) async throws(StartError) -> Gateway {
        // glibc gives each busy thread a heap of its own (up to 8 per core); the HTTP, store and APNs threads
        // then hold tens of MiB of freed but unreturned memory. A few heaps keep the server small.
        pb_limit_malloc_arenas(2)
        let proxy: HTTPProxy?
        do { proxy = try configuration.proxy.resolve() } catch {
            throw StartError(message: "the proxy to APNs: \(error.message)")
        }
        let store: any GatewayStore
        if let given {
            store = given
        } else {
            store = try openStore(configuration.store, connections: max(4, configuration.workers.count + 4))
        }
        var apps: [String: AppRuntime] = [:]
        // A step that fails after the APNs clients were built shuts them (and their threads) down again.
        func abandon(_ error: StartError) async -> StartError {
            for app in apps.values { await app.client?.shutdown() }
            return error
        }
        for app in configuration.apps {
            do { apps[app.id] = try runtime(app, workers: configuration.workers, proxy: proxy) } catch {
                throw await abandon(error)
            }
        }
        let metrics = GatewayMetrics()
        let webhook = configuration.webhook.map { WebhookNotifier($0) }
        // The stream's events are raised by every process with the setting (tap routes too, without workers).
        if let stream = configuration.webhook?.events, let events = store as? any EventStreamStore {
            events.streamEvents(stream.types)
        }
        let waiters = OutcomeWaiters(
            maximumSeconds: configuration.maximumWaitSeconds, maximumWaiters: configuration.maximumWaiters,
            clock: pollClock)
        // Outcomes recorded by another process (PostgreSQL) wake the requests waiting here.
        waiters.hear { heard in store.observeRecordedOutcomes(heard) }
        let services = GatewayServices(
            store: store, apps: apps, maximumRecipients: configuration.maximumRecipients, metrics: metrics, now: now,
            waiters: waiters)
        let console = ConsoleRoutes(
            apps: configuration.apps, secureCookies: configuration.listen.tls != nil, now: now)
        let router = Router(services: services, keys: KeyRing(configuration.apps), metrics: metrics, console: console)
        let drain = DrainState()
        let server: HTTPServer
        do {
            // Once a stop begins, /readyz says so: a load balancer sends no more requests here.
            server = try HTTPServer(configuration.listen) { request in
                if drain.isDraining, request.path == "/readyz" { return .text(503, "shutting down\n") }
                return router.handle(request)
            }
        } catch {
            throw await abandon(StartError(message: "listening: \(error.message)"))
        }
        let signal = WorkSignal(clock: pollClock)
        let workers = DeliveryWorkers(
            store: store, apps: apps, options: configuration.workers, metrics: metrics, webhook: webhook, drain: drain,
            now: now, signal: signal, waiters: waiters, experiments: services.experiments)
        // Raised by the store after an intake's commit (here, or another process's on PostgreSQL).
        // A process without workers has no one to wake (and needs no LISTEN connection).
        let wakeOnCommit =
            configuration.workers.count > 0 ? store.observeCommittedWork { signal.raise() } : WorkObservation {}
        // A single notification committed while a worker waits idle goes to it leased, without a second transaction.
        if configuration.workers.count > 0 { store.handOffLeases(to: workers.handOff) }
        let background = Task {
            await workers.run()
        }
        return Gateway(
            configuration: configuration, port: server.port, metrics: metrics, store: store, server: server, apps: apps,
            workers: workers, background: background, wakeOnCommit: wakeOnCommit, drain: drain)
    }

    private static func runtime(_ app: AppConfiguration, workers: WorkerOptions, proxy: HTTPProxy?)
        throws(StartError) -> AppRuntime
    {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: app.manifestPath)))
        } catch {
            throw StartError(message: "app '\(app.id)': cannot read the manifest \(app.manifestPath)")
        }
        let parsed = Manifest.parse(bytes)
        guard let manifest = parsed.manifest, parsed.isUsable else {
            let first = parsed.diagnostics.first { $0.severity == .error }.map { ": \($0)" } ?? ""
            throw StartError(
                message:
                    "app '\(app.id)': the manifest \(app.manifestPath) has errors\(first) (pushbutton lint shows all)")
        }
        var certificate: ClientCertificate?
        var tokens: TokenProvider?
        switch app.credentials {
        case .token(let keyFile, let keyID, let teamID):
            do {
                tokens = TokenProvider(key: try P256PrivateKey(contentsOf: keyFile), keyID: keyID, teamID: teamID)
            } catch {
                throw StartError(message: "app '\(app.id)': the provider key \(keyFile): \(error.message)")
            }
        case .certificate(let certificateFile, let keyFile):
            certificate = .pem(certificate: certificateFile, key: keyFile)
        case .pkcs12(let file, let passphraseFile):
            certificate = .pkcs12(file: file, passphraseFile: passphraseFile)
        }
        let client: APNsClient
        do {
            let transport = try NGHTTP2Transport(
                TransportConfiguration(
                    environment: app.environment, connections: app.connections, proxy: proxy, certificate: certificate))
            client = APNsClient(
                transport: transport, tokens: tokens, retryPolicy: workers.retryPolicy,
                requestTimeout: workers.requestTimeout)
        } catch {
            throw StartError(message: "app '\(app.id)': the APNs transport: \(error)")
        }
        return AppRuntime(configuration: app, validator: PayloadValidator(manifest: manifest), client: client)
    }

    /// Threads of its own still running (HTTP handlers and store calls): 0 once ``stop()`` returned.
    var runningThreads: Int { server.runningHandlerThreads + workers.threads.runningThreads }

    /// Stops the way SIGTERM asks: `/readyz` answers 503 at once, the API stops accepting and answers the
    /// requests under way, each worker finishes the batch it is sending and records its outcomes, a batch
    /// leased but not started goes back to the queue at once, the webhook relays give back what they hold, and the APNs
    /// connections close; every thread the gateway started has ended when it returns. The caller bounds the
    /// time (`serve` exits after ``GatewayConfiguration/shutdownGrace`` whatever is left).
    public func stop() async {
        drain.begin()
        workers.signal.raiseForAll()  // each idle worker sees the drain now, not at its fallback poll
        await server.stop()
        wakeOnCommit.cancel()
        workers.recorder.waiters?.stopHearing()
        background.cancel()
        await background.value
        for app in apps.values { await app.client?.shutdown() }
    }
}
