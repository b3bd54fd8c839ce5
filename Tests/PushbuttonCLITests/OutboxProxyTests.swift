import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonTestSupport
import Testing

/// `pushbutton outbox drain` through the tests' CONNECT proxy, run as a user runs it.
@Suite(.timeLimit(.minutes(2))) struct OutboxProxyTests {
    @Test func drainTunnelsThroughTheProxyItIsGivenOrTheEnvironmentNames() async throws {
        let (directory, path) = try OutboxCommandTests.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: path)
        for key in ["a", "b"] { try await outbox.enqueue(OutboxCommandTests.request(key)) }
        let receiver = try TapReceiver()
        defer { receiver.stop() }
        let proxy = try ConnectProxy(credentials: "fred:letmein")
        defer { proxy.stop() }

        let refused = try await SendProxyAndAppsTests.run([
            "outbox", "drain", path, "--endpoint", receiver.endpoint, "--proxy", proxy.url(credentials: "fred:nope"),
        ])
        let output = refused.stdout + refused.stderr
        #expect(output.contains("remaining 2"), "\(output)")
        #expect(!output.contains("nope"), "\(output)")

        // The failed attempt set a retry time: a fresh database for the one that works.
        let (second, secondPath) = try OutboxCommandTests.database()
        defer { try? FileManager.default.removeItem(at: second) }
        let fresh = try Outbox(path: secondPath)
        for key in ["c", "d"] { try await fresh.enqueue(OutboxCommandTests.request(key)) }
        let drained = try await SendProxyAndAppsTests.run(
            ["outbox", "drain", secondPath, "--endpoint", receiver.endpoint],
            environment: ["HTTPS_PROXY": proxy.url(credentials: "fred:letmein")])
        #expect(drained.status == 0, "\(drained.stderr)")
        #expect(drained.stdout.contains("delivered 2"), "\(drained.stdout)")
        #expect(proxy.tunnels >= 1)
        #expect(try receiver.keys().sorted() == ["c", "d"])
    }
}
