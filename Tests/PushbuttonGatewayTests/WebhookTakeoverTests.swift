import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Red-team M10: two `pushbutton serve` processes on one PostgreSQL share the webhook. The one holding the
/// webhook lease is killed with SIGKILL in the middle of a post (the receiver never answers it); the survivor
/// posts what it held once the lease runs out, and a `device.unregistered` raised after the kill. Each event
/// reaches the receiver once (no event is recorded twice, none is missing).
@Suite(.serialized, .timeLimit(.minutes(5)))
struct WebhookTakeoverTests {
    /// A webhook receiver whose first request is never answered (its sender dies holding it); every other
    /// request is recorded by its `Idempotency-Key` and answered 200.
    final class HoldingReceiver: Sendable {
        let server: HTTPServer
        let held = Locked<String?>(nil)
        let keys = Locked<[String]>([])
        let changed = ChangeSignal()
        let release = DispatchSemaphore(value: 0)

        init() throws {
            let (held, keys, changed, release) = (held, keys, changed, release)
            server = try HTTPServer(HTTPServerOptions(port: 0)) { request in
                let key = request.header("idempotency-key") ?? ""
                let first = held.withLock { value -> Bool in
                    guard value == nil else { return false }
                    value = key
                    return true
                }
                changed.notify()
                if first {
                    release.wait()  // until the test ends: the process that sent it is gone by then
                    return .text(503, "gone")
                }
                keys.withLock { $0.append(key) }
                changed.notify()
                return .text(200, "ok")
            }
        }

        var recorded: [String] { keys.withLock { $0 } }
        var heldKey: String? { held.withLock { $0 } }

        func wait(_ condition: () -> Bool) async { await changed.wait(until: condition) }

        func stop() async {
            release.signal()
            await server.stop()
        }
    }

    static func token(_ number: Int) -> String { String(format: "%064x", 0xDEAD_0000 + number) }

    @Test func theSurvivorPostsWhatAKilledProcessHeldEachOnce() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        defer { cluster.stop() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let directory = NSTemporaryDirectory() + "pushbutton-takeover-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try GatewayFixture.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        let mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .h2c,
                keys: [try MockProviderKey(keyID: GatewayFixture.keyID, teamID: GatewayFixture.teamID, privateKey: key)]
            ))
        let receiver = try HoldingReceiver()
        // Every token is dead: each send raises one device.unregistered.
        for number in 0..<6 { mock.registry.unregister(token: Self.token(number)) }
        let config = GatewayFixture.configurationText(
            mockPort: mock.port, caFile: nil, webhookPort: receiver.server.port, store: url, workers: 1
        ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
            .replacingOccurrences(of: #""leaseSeconds": 30"#, with: #""leaseSeconds": 4"#)
        try config.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o600)
        chmod(directory + "/gateway.json", 0o600)
        let configPath = directory + "/gateway.json"
        var survivor: ServeProcess?
        let first = try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) }
        do {
            // Three dead tokens through the first process: its relay leases their events and posts one, which
            // the receiver holds.
            try await send(port: first.port, tokens: (0..<3).map(Self.token))
            await receiver.wait { receiver.heldKey != nil }
            let held = try #require(receiver.heldKey)
            // The second process starts and posts the event of a new dead token while the first still holds its
            // lease (renewed while the post hangs).
            let second = try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) }
            survivor = second
            try await send(port: second.port, tokens: [Self.token(3)])
            // Anything recorded was posted by the second process (the first one's relay hangs in its post), in
            // a lease taken while the first held its events: the held one must not be among them.
            await receiver.wait { !receiver.recorded.isEmpty }
            #expect(!receiver.recorded.contains(held), "posted while its holder was alive")
            // SIGKILL: the lease is neither released nor renewed again.
            try await Blocking.run { first.kill9() }
            try await send(port: second.port, tokens: [Self.token(4), Self.token(5)])
            await receiver.wait { Set(receiver.recorded).count >= 6 }
            let recorded = receiver.recorded
            #expect(Set(recorded).count == 6, "\(recorded)")
            #expect(recorded.count == 6, "each event posted once: \(recorded)")
            #expect(recorded.contains(held), "the held event, by the survivor")
            #expect(recorded.allSatisfy { $0.hasPrefix("device.unregistered:") })
        } catch {
            first.terminate()
            survivor?.terminate()
            await receiver.stop()
            await mock.stop()
            throw error
        }
        first.terminate()
        survivor?.terminate()
        await receiver.stop()
        await mock.stop()
    }

    private func send(port: Int, tokens: [String]) async throws {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/apps/chat/notifications")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        let list = tokens.map { "\"\($0)\"" }.joined(separator: ", ")
        request.httpBody = Data(#"{"to": {"tokens": [\#(list)]}, "category": "message", "body": "Hi"}"#.utf8)
        request.timeoutInterval = 60
        let (data, response) = try await TestHTTP.session.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 202, "\(String(decoding: data, as: UTF8.self))")
    }
}
