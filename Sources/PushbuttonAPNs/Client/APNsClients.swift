import Foundation

/// Several apps, keys, certificates and environments behind one sender: each notification goes to the
/// ``APNsClient`` of the app its topic names, in the environment asked for.
///
/// Connections are shared where APNs allows and kept apart where it does not:
/// - **Token authentication**: one provider token serves every app of a team ("Establishing a token-based
///   connection to APNs"), so apps of one team, signed with one key, in one environment share one client
///   (its connections and its token). APNs does not take tokens of several teams on one connection, and
///   tokens of several keys on one connection count as token changes (429 `TooManyProviderTokenUpdates`),
///   so each team and key gets connections of its own.
/// - **Certificate authentication**: a certificate covers one app ("Establishing a certificate-based
///   connection to APNs"), so each certificate gets connections of its own.
///
/// ```swift
/// let clients = try APNsClients(apps: [
///     APNsApp(topic: "com.example.chat", environment: .production,
///             credentials: .token(key: key, keyID: "KEY1234567", teamID: "TEAM123456")),
///     APNsApp(topic: "com.example.maps", environment: .production,
///             credentials: .token(key: key, keyID: "KEY1234567", teamID: "TEAM123456")),  // same connections
///     APNsApp(topic: "com.other.legacy", environment: .sandbox,
///             credentials: .certificate(.pkcs12(file: "legacy.p12", passphraseFile: "legacy.pass"))),
/// ])
/// let result = await clients.send(notification, environment: .sandbox)
/// ```
///
/// A notification whose topic no app covers ends ``APNsResult/failed(apnsID:attempts:lastCause:)`` with an
/// `invalidRequest` cause that says so; nothing is sent for it.
public final class APNsClients: Sendable {
    /// The apps, in the order given.
    public let apps: [APNsApp]
    /// One client per shared connection group, in the order of first use by ``apps``.
    public let clients: [APNsClient]
    /// For each app (by index in ``apps``), the index of its client in ``clients``.
    private let clientOfApp: [Int]

    /// - Parameters:
    ///   - observer: told of every client's events (one observer sees them all).
    ///   - transport: makes each group's transport (the nghttp2 transport by default); `configuration` has the
    ///     group's environment, ``TransportConfiguration/connections`` and, with certificates, the certificate.
    public init(
        apps: [APNsApp], connections: Int = 1, proxy: HTTPProxy? = nil, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(30), observer: (any APNsObserver)? = nil,
        transport: (TransportConfiguration) throws(APNsError) -> any APNsTransport = APNsClients.defaultTransport
    ) throws(APNsError) {
        guard !apps.isEmpty else { throw APNsError(.invalidRequest, "no apps: give at least one") }
        var groups: [String: Int] = [:]
        var clients: [APNsClient] = []
        var clientOfApp: [Int] = []
        var seen: [String: Int] = [:]
        for (index, app) in apps.enumerated() {
            let appKey = "\(app.topic)|\(app.environment.origin)"
            if let earlier = seen[appKey] {
                throw APNsError(
                    .invalidRequest,
                    "apps[\(index)] repeats apps[\(earlier)]: '\(app.topic)' in \(app.environment.origin); give each "
                        + "topic once per environment")
            }
            seen[appKey] = index
            let group: String
            let tokens: TokenProvider?
            var configuration = TransportConfiguration(
                environment: app.environment, connections: connections, proxy: proxy)
            switch app.credentials {
            case .token(let key, let keyID, let teamID):
                group = "token|\(app.environment)|\(teamID)|\(keyID)"
                tokens = TokenProvider(key: key, keyID: keyID, teamID: teamID)
            case .certificate(let certificate):
                group = "certificate|\(app.environment)|\(certificate)"
                tokens = nil
                configuration.certificate = certificate
            }
            if let existing = groups[group] {
                clientOfApp.append(existing)
                continue
            }
            let made: any APNsTransport
            do {
                made = try transport(configuration)
            } catch {
                for client in clients { Task { await client.shutdown() } }
                throw APNsError(error.kind, "apps[\(index)] ('\(app.topic)'): \(error.message)")
            }
            groups[group] = clients.count
            clientOfApp.append(clients.count)
            clients.append(
                APNsClient(
                    transport: made, tokens: tokens, retryPolicy: retryPolicy, requestTimeout: requestTimeout,
                    observer: observer))
        }
        self.apps = apps
        self.clients = clients
        self.clientOfApp = clientOfApp
    }

    /// The nghttp2 transport (or, where it is not built, an error).
    public static func defaultTransport(_ configuration: TransportConfiguration) throws(APNsError) -> any APNsTransport
    {
        #if canImport(CNGHTTP2) && canImport(COpenSSL)
            return try NGHTTP2Transport(configuration)
        #else
            throw APNsError(.transport, "no HTTP/2 transport on this platform: pass one with transport:")
        #endif
    }

    /// The app for `topic` (the app's own, or it with a suffix) in `environment`; with no environment given,
    /// the only environment the topic is configured for. Throws, saying why, when there is none or the choice
    /// is ambiguous.
    public func app(topic: String, environment: APNsEnvironment? = nil) throws(APNsError) -> APNsApp {
        apps[try appIndex(topic: topic, environment: environment)]
    }

    /// The client that sends for `topic` in `environment` (see ``app(topic:environment:)``).
    public func client(topic: String, environment: APNsEnvironment? = nil) throws(APNsError) -> APNsClient {
        clients[clientOfApp[try appIndex(topic: topic, environment: environment)]]
    }

    private func appIndex(topic: String, environment: APNsEnvironment?) throws(APNsError) -> Int {
        // The longest app topic that is the topic itself or a prefix of it before a dot: `com.example.app.voip`
        // goes to `com.example.app` unless `com.example.app.voip` is an app of its own.
        let matching = apps.indices.filter { index in
            let own = apps[index].topic
            return (topic == own || topic.hasPrefix(own + "."))
                && (environment.map { $0.origin == apps[index].environment.origin } ?? true)
        }
        guard let longest = matching.map({ apps[$0].topic.count }).max() else {
            let known = Set(apps.map(\.topic)).sorted().joined(separator: ", ")
            let place = environment.map { " in \($0.origin)" } ?? ""
            throw APNsError(
                .invalidRequest, "no app is configured for the topic '\(topic)'\(place) (apps: \(known))")
        }
        let best = matching.filter { apps[$0].topic.count == longest }
        guard best.count == 1 else {
            let origins = best.map { apps[$0].environment.origin }.joined(separator: ", ")
            throw APNsError(
                .invalidRequest,
                "the topic '\(topic)' is configured for \(best.count) environments (\(origins)): name the environment")
        }
        return best[0]
    }

    /// Sends `notification` with the client of its topic's app in `environment`; a topic no app covers ends
    /// failed (invalid request) without being sent.
    public func send(_ notification: APNsNotification, environment: APNsEnvironment? = nil) async -> APNsResult {
        let client: APNsClient
        do throws(APNsError) {
            client = try self.client(topic: notification.topic, environment: environment)
        } catch {
            return .failed(apnsID: notification.apnsID, attempts: 0, lastCause: error)
        }
        return await client.send(notification)
    }

    /// Sends every notification of `notifications` (each with the environment it names, or nil for its
    /// topic's only one) with at most `maximumInFlight` under way, calling `onResult` as each completes.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onResult: (APNsNotification, APNsResult) async -> Void
    ) async rethrows where Notifications.Element == (APNsNotification, APNsEnvironment?) {
        try await withThrowingTaskGroup(of: (APNsNotification, APNsResult).self) { group in
            var inFlight = 0
            for try await (notification, environment) in notifications {
                if inFlight >= max(1, maximumInFlight), let (done, result) = try await group.next() {
                    await onResult(done, result)
                    inFlight -= 1
                }
                group.addTask { (notification, await self.send(notification, environment: environment)) }
                inFlight += 1
                if Task.isCancelled { break }
            }
            while let (done, result) = try await group.next() { await onResult(done, result) }
        }
    }

    /// Finishes what is in flight, then closes every client's connections.
    public func shutdown() async {
        await withTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { await client.shutdown() } }
        }
    }
}
