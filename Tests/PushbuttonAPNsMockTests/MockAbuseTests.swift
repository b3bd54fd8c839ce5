import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonTestSupport
import Testing

@testable import PushbuttonAPNsMock

#if canImport(Glibc)
    import Glibc
#endif

/// The mock under abuse: idle connections and half-done handshakes do not keep a real client out.
@Suite(.timeLimit(.minutes(5))) struct MockAbuseTests {
    /// A TCP connection to the mock that never says a word (a half-finished TLS handshake).
    static func silentConnection(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return descriptor
    }

    /// Whether the server closed the connection (a read returns end of file, waiting at most `seconds`).
    static func isClosedByServer(_ descriptor: Int32, within seconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, seconds * 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) <= 0
    }

    @Test func manyIdleConnectionsDoNotKeepARealClientOut() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-abuse-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        var configuration = MockAPNsConfiguration(
            security: .selfSigned(directory: directory),
            keys: [try MockProviderKey(keyID: MockFixture.keyID, teamID: MockFixture.teamID, privateKey: key)])
        configuration.handshakeTimeout = .seconds(1)
        configuration.maximumConnections = 16
        let mock = try await MockAPNs.start(configuration)
        let idle = (0..<40).map { _ in Self.silentConnection(port: mock.port) }
        defer { idle.forEach { close($0) } }
        // The mock has taken in every idle connection (shedding the longest idle past its cap) before the client.
        await yieldUntil { mock.counters.connections >= idle.count }
        let transport = try NGHTTP2Transport(.init(environment: mock.environment))
        let client = APNsClient(
            transport: transport, tokens: TokenProvider(key: key, keyID: MockFixture.keyID, teamID: MockFixture.teamID),
            requestTimeout: .seconds(5))
        // Delivered within the client's request timeout: a client kept out would time out instead (no wall-clock
        // bound of our own: at load 19 the send took 8 s, still delivered).
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        // Every silent connection is closed: at once past the cap, or when its handshake time ran out.
        let closed = idle.filter { Self.isClosedByServer($0, within: 3) }.count
        #expect(closed == idle.count, "\(closed) of \(idle.count) idle connections were closed")
        #expect(await client.send(try MockFixture.notification(token: MockFixture.token(2))).isDelivered)
        await client.shutdown()
        await mock.stop()
    }

    @Test func aTokenOverOneHundredBytesIsABadDeviceToken() async throws {
        let fixture = try await MockFixture(security: .h2c)
        let transport = try NGHTTP2Transport(.init(environment: fixture.mock.environment))
        let token = try ProviderToken(
            key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID, issuedAt: Date())
        let notification = try MockFixture.notification()
        for (digits, expected) in [(200, 200), (202, 400), (4096, 400)] {
            let response = try await transport.send(
                HTTPRequest(
                    path: "/3/device/" + String(repeating: "a", count: digits),
                    headers: notification.headers(token: token),
                    body: notification.payload, timeout: .seconds(5)))
            #expect(response.status == expected, "\(digits) digits")
            if expected == 400 { #expect(String(decoding: response.body, as: UTF8.self).contains("BadDeviceToken")) }
        }
        await transport.shutdown()
        await fixture.stop()
    }
}
