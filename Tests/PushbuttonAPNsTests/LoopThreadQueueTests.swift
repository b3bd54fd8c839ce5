import Foundation
import Pushbutton
import PushbuttonSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// A bulk send whose deliveries refill on the transport's own thread: those requests skip the loop's lock
/// and its incoming list (``ClientLoop/enqueue(_:)``), reuse finished streams, and read their notification
/// from their ``Delivery`` rather than from a copy.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LoopThreadQueueTests {
    typealias Collected = DirectBulkPumpTests.Collected

    static func notifications(_ count: Int) throws -> [APNsNotification] {
        try (0..<count).map { index in
            APNsNotification(
                deviceToken: try DeviceToken(String(format: "%064x", index)),
                payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), topic: "com.example.app", priority: 10)
        }
    }

    static func send(_ notifications: [APNsNotification], client: APNsClient, window: Int) async -> Collected {
        let channel = BoundedChannel<APNsNotification>(capacity: 64)
        let producer = Thread {
            for notification in notifications { channel.send(notification) }
            channel.finish()
        }
        producer.start()
        let collected = Collected()
        await client.send(polling: channel, maximumInFlight: window) { collected.add($0, $1, $2) }
        return collected
    }

    @Test func requestsRefilledOnTheLoopThreadAreEachSentOnceWithTheirOwnHeaders() async throws {
        let server = try APNsTestServer(tls: false)
        defer { server.stop() }
        let transport = try NGHTTP2Transport(.init(environment: server.environment))
        let client = APNsClient(
            transport: transport,
            tokens: TokenProvider(key: try P256PrivateKey.generate(), keyID: "KEY1234567", teamID: "TEAM123456"))
        let notifications = try Self.notifications(300)
        let collected = await Self.send(notifications, client: client, window: 16)
        await client.shutdown()
        #expect(collected.count == 300)
        #expect(collected.duplicates.load(ordering: .relaxed) == 0)
        #expect(collected.results.withLock { $0.values.allSatisfy(\.result.isDelivered) })
        // Refilled where the answers arrived: on the loop's thread, on streams finished before.
        #expect(transport.loops[0].streamsReused.load(ordering: .relaxed) > 0)
        // Each request carried its own notification's path and apns-id (read from its delivery).
        let sent = try server.requests()
        let expected = Set(notifications.map { "\($0.deviceToken.hex) \($0.apnsID.uuidString.lowercased())" })
        #expect(
            Set(sent.compactMap { request in request["token"].map { "\($0) \(request["apns_id"] ?? "")" } }) == expected
        )
    }

    @Test func requestsQueuedOnTheLoopThreadWhileWaitingOnesFailAreNotDropped() async throws {
        // A port nobody listens on: every connection attempt fails, and with it every request waiting for
        // one; each failure starts the next notification on the loop's thread, which must still get its own
        // result (not vanish with the waiting list it joined while that list was failed).
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(listener)
        let client = APNsClient(
            transport: try NGHTTP2Transport(
                .init(environment: APNsEnvironment(host: "127.0.0.1", port: port, cleartext: true))),
            tokens: nil, retryPolicy: RetryPolicy(maximumAttempts: 1))
        let collected = await Self.send(try Self.notifications(12), client: client, window: 4)
        await client.shutdown()
        #expect(collected.count == 12)
        #expect(collected.results.withLock { $0.values.allSatisfy { !$0.result.isDelivered } })
    }
}
