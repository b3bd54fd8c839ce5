import Foundation
import PushbuttonAPNs
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport

/// A local stand-in for APNs: a real HTTP/2 server (TLS with ALPN `h2`, or h2c) that validates requests
/// as APNs does, verifies provider tokens, injects faults from a seed, records what it accepted, and can
/// deliver accepted notifications to simulated devices.
///
/// ```swift
/// let key = try P256PrivateKey.generate()
/// let mock = try await MockAPNs.start(MockAPNsConfiguration(
///     security: .selfSigned(directory: certificates),
///     keys: [MockProviderKey(keyID: "KEY1234567", teamID: "TEAM123456", privateKey: key)]))
/// defer { Task { await mock.stop() } }
/// let client = APNsClient(transport: try NGHTTP2Transport(.init(environment: mock.environment)), ...)
/// ```
public final class MockAPNs: Sendable {
    /// The address it listens on.
    public let host: String
    /// The port it listens on (the one picked when the configuration asked for port 0).
    public let port: Int
    /// The CA certificate clients should trust (for `.selfSigned`), nil otherwise.
    public let caFile: String?
    /// The configuration it was started with.
    public let configuration: MockAPNsConfiguration
    /// Which device tokens exist; by default every well-formed token is accepted.
    public let registry: DeviceRegistry
    private let verifier: ProviderTokenVerifier
    private let service: MockAPNsService
    private let loop: MockServerLoop

    private init(
        configuration: MockAPNsConfiguration, port: Int, caFile: String?, registry: DeviceRegistry,
        verifier: ProviderTokenVerifier, service: MockAPNsService, loop: MockServerLoop
    ) {
        host = configuration.host
        self.registry = registry
        self.port = port
        self.caFile = caFile
        self.configuration = configuration
        self.verifier = verifier
        self.service = service
        self.loop = loop
    }

    /// Binds, starts the server's thread and returns once it accepts connections.
    ///
    /// SIGPIPE is ignored from then on: OpenSSL writes to sockets without `MSG_NOSIGNAL`, and a client that
    /// disconnects must cost an error code, not the process.
    public static func start(_ configuration: MockAPNsConfiguration) async throws(MockAPNsError) -> MockAPNs {
        signal(SIGPIPE, SIG_IGN)
        let (tls, caFile) = try tlsContext(for: configuration.security)
        if let authority = configuration.clientCertificateAuthority {
            guard let tls else {
                throw MockAPNsError(.tlsConfiguration, "client certificates need TLS: h2c cannot carry them")
            }
            try tls.requireClientCertificates(caFile: authority)
        }
        let listener: Int32
        let port: Int
        do {
            (listener, port) = try ListeningSocket.bind(host: configuration.host, port: configuration.port)
        } catch {
            throw MockAPNsError(.listen, error.message)
        }
        let registry = DeviceRegistry()
        let verifier = ProviderTokenVerifier(keys: configuration.keys)
        let service = MockAPNsService(configuration: configuration, verifier: verifier, registry: registry)
        let loop: MockServerLoop
        do {
            loop = try MockServerLoop(listener: listener, tls: tls, service: service)
        } catch {
            close(listener)
            throw error
        }
        let mock = MockAPNs(
            configuration: configuration, port: port, caFile: caFile, registry: registry, verifier: verifier,
            service: service, loop: loop)
        loop.start()
        return mock
    }

    private static func tlsContext(for security: MockAPNsConfiguration.Security) throws(MockAPNsError) -> (
        TLSServerContext?, String?
    ) {
        switch security {
        case .h2c:
            return (nil, nil)
        case .certificate(let chainFile, let privateKeyFile):
            return (try TLSServerContext(certificateChainFile: chainFile, privateKeyFile: privateKeyFile), nil)
        case .selfSigned(let directory):
            let authority = try SelfSignedAuthority(directory: directory)
            let context = try TLSServerContext(
                certificateChainFile: authority.certificateFile, privateKeyFile: authority.privateKeyFile)
            return (context, authority.caFile)
        }
    }

    /// Where a sender should connect: host, port, CA file, and cleartext for h2c.
    public var environment: APNsEnvironment {
        APNsEnvironment(host: host, port: port, caFile: caFile, cleartext: configuration.security == .h2c)
    }

    /// Accepts tokens signed by another key from now on.
    public func register(_ key: MockProviderKey) {
        verifier.register(key)
    }

    /// Every accepted notification so far, in order (up to the configuration's recording limit).
    public var notifications: [RecordedNotification] { service.recorder.notifications }

    /// The broadcast channels, per bundle id: created by the channel management API, or added by a test.
    public var channels: MockChannelRegistry { service.channels }

    /// Every broadcast accepted so far, in order.
    public var broadcasts: [RecordedBroadcast] { service.channels.broadcasts }

    /// What the mock has seen so far.
    public var counters: MockCounters { service.recorder.counters }

    /// Forgets the recorded notifications and counters.
    public func resetRecording() { service.recorder.reset() }

    /// Delivers every notification accepted from now on to `center`, as APNs would deliver to a device:
    /// only those for `token` when one is given, else all of them.
    public func forward(to center: SimulatedNotificationCenter, token: String? = nil) {
        forward(token: token) { notification in
            guard let payload = notification.typedPayload else { return }
            await center.deliver(payload, identifier: notification.apnsID)
        }
    }

    /// Hands every notification accepted from now on (for `token`, or all) to `receive`, in order: for a
    /// device that does more on arrival, as a Notification Service Extension registering the payload's own
    /// buttons before iOS shows it.
    public func forward(token: String? = nil, to receive: @escaping @Sendable (RecordedNotification) async -> Void) {
        service.forwarder.attach(token: token, receive)
    }

    /// Calls `observer` for every answered request, on the server's thread (keep it quick).
    public func onAnswer(_ observer: @escaping @Sendable (MockAnswer) -> Void) {
        service.observer.set(observer)
    }

    /// Waits until every forwarded notification has reached its simulated device.
    public func deliveriesSettled() async {
        await service.forwarder.settle()
    }

    /// Closes the listener and every connection; in-flight streams get no answer.
    public func stop() async {
        await loop.stop()
        service.forwarder.finish()
    }
}
