import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// One app's APNs outage does not hold other apps' recipients back: while an app's circuit is open (and no probe
/// is due) the workers' leases pass its batches over, so the room in each lease goes to apps that can be sent.
/// The circuit's clock never moves here, so no probe comes due.
@Suite(.timeLimit(.minutes(2))) struct CircuitLeaseTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anAppWhoseCircuitIsOpenIsPassedOverWhileAnotherIsDelivered() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-circuit-lease-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        let mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .h2c, keys: [try MockProviderKey(keyID: "KEY1234567", teamID: "TEAM123456", privateKey: key)])
        )
        let sqlite = try SQLGatewayStore.sqlite(path: directory + "/gateway.db", now: Self.t0)
        // The unreachable app's queue comes first and is larger than a lease.
        for (id, app, topic, count, base) in [
            ("o1", "other", "com.example.other", 300, 0x1000), ("c1", "chat", "com.example.chat", 3, 0x2000),
        ] {
            _ = try sqlite.enqueue(
                NotificationSpec(id: id, app: app, kind: .notification, topic: topic, createdAt: Self.t0),
                deliveries: (0..<count).map {
                    NewDelivery(
                        token: String(format: "%064x", base + $0), apnsID: UUID().uuidString.lowercased(),
                        payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
                }, idempotency: nil, now: Self.t0)
        }
        let store = ThreadRecordingStore(sqlite)
        let clock = ManualClock()
        let client = APNsClient(
            transport: try NGHTTP2Transport(.init(environment: mock.environment)),
            tokens: TokenProvider(key: key, keyID: "KEY1234567", teamID: "TEAM123456"),
            retryPolicy: RetryPolicy(maximumAttempts: 2, baseBackoff: .milliseconds(10)), requestTimeout: .seconds(30),
            clock: AnyDurationClock(clock))
        let manifest = try #require(Manifest.parse(Array(GatewayFixture.manifest.utf8)).manifest)
        var apps: [String: AppRuntime] = [:]
        for (id, topic) in [("chat", "com.example.chat"), ("other", "com.example.other")] {
            let configuration = AppConfiguration(
                id: id, topic: topic, manifestPath: directory + "/manifest.json",
                credentials: .token(keyFile: directory + "/AuthKey.p8", keyID: "KEY1234567", teamID: "TEAM123456"),
                environment: mock.environment, secretKeyDigests: [], publishableKeyDigests: [])
            apps[id] = AppRuntime(
                configuration: configuration, validator: PayloadValidator(manifest: manifest), client: client)
        }
        let workers = DeliveryWorkers(
            store: store, apps: apps, options: WorkerOptions(count: 1, batchSize: 100), metrics: GatewayMetrics(),
            webhook: nil, now: { Self.t0 }, clock: AnyDurationClock(clock))
        // "other"'s APNs could not be reached: its circuit is open, its first probe not due on the still clock.
        let circuit = try #require(workers.circuits["other"])
        circuit.record(reached: 0, unreachable: circuit.threshold)
        #expect(circuit.isOpen && circuit.holdsAll)

        let running = Task { await workers.run() }
        // Either the chat recipients are delivered, or the unreachable app was leased (the defect): whichever
        // comes first ends the wait.
        await yieldUntil { mock.counters.accepted >= 3 || store.leasedApps.contains("other") }
        #expect(!store.leasedApps.contains("other"), "the unreachable app's recipients were leased")
        #expect(mock.counters.accepted == 3)
        running.cancel()
        await running.value
        let held = try #require(try sqlite.notification(id: "o1", limit: 0, after: 0))
        #expect(held.counts == [.queued: 300], "held, no attempt spent: \(held.counts)")
        let sent = try #require(try sqlite.notification(id: "c1", limit: 0, after: 0))
        #expect(sent.counts == [.delivered: 3] || (sent.counts[.delivered] ?? 0) + (sent.counts[.leased] ?? 0) == 3)
        await client.shutdown()
        await mock.stop()
    }
}
