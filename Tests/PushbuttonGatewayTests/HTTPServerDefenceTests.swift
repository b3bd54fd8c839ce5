import Dispatch
import Foundation
import Pushbutton
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonGateway

/// The HTTP server's defences against hostile clients, in process where their counters can be read.
@Suite(.timeLimit(.minutes(2)))
struct HTTPServerDefenceTests {
    final class Counter: Sendable {
        let value = Atomic(0)
    }

    private static func answer(_ connection: RawConnection) -> String {
        String(decoding: connection.receive { $0.count >= 12 }.prefix(12), as: UTF8.self)
    }

    private static func get(_ path: String) -> [UInt8] { Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8) }

    @Test func connectionsAreCappedAndAcceptingResumesWhenOneCloses() async throws {
        // Timeouts far beyond the test's time limit: connections opened early wait their turn on a loaded machine,
        // and h2o must not close them as idle meanwhile (the cap, not the timeouts, is under test).
        var options = HTTPServerOptions(port: 0, maximumConnections: 20)
        options.requestTimeout = .seconds(600)
        options.idleTimeout = .seconds(600)
        let server = try HTTPServer(options) { _ in .text(200, "ok") }
        #expect(server.maximumConnections == 20)
        let port = server.port
        // 30 connect (the kernel's backlog takes them); the server accepts 20 and leaves the rest there.
        let connections = try await Blocking.run { try (0..<30).map { _ in try RawConnection(port: port) } }
        await yieldUntil { server.defenceCounters.openConnections >= 20 }
        let late = connections[25]
        late.send(Self.get("/late"))
        #expect(server.defenceCounters.openConnections == 20)
        // Ten of the accepted ones leave: the server accepts from the backlog again, the late one among them.
        try await Blocking.run {
            for connection in connections[0..<10] {
                connection.send(Self.get("/bye"))
                guard Self.answer(connection) == "HTTP/1.1 200" else {
                    throw RawConnection.Failure(description: "no answer")
                }
                connection.close()
            }
        }
        let answer = try await Blocking.run { Self.answer(late) }
        #expect(answer == "HTTP/1.1 200")
        #expect(server.defenceCounters.openConnections <= 20)
        #expect(server.defenceCounters.acceptFailures == 0)
        try await Blocking.run { for connection in connections[10...] { connection.close() } }
        await server.stop()
    }

    @Test func aFullQueueIsAnswered503WhileHealthzIsStillAnswered() async throws {
        let release = DispatchSemaphore(value: 0)
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        var options = HTTPServerOptions(port: 0, handlerThreads: 1, maximumQueuedRequests: 2)
        options.requestTimeout = .seconds(600)
        options.idleTimeout = .seconds(600)
        let server = try HTTPServer(options) {
            request in
            if request.path == "/slow" {
                startedContinuation.yield()
                release.wait()
            }
            return .text(200, "ok \(request.path)")
        }
        let port = server.port
        // Each connection is opened just before its request: one opened early could sit idle past h2o's request
        // timeout on a loaded machine and be closed, and its request would then never be queued.
        let first = try await Blocking.run { try RawConnection(port: port) }
        first.send(Self.get("/slow"))
        for await _ in started { break }
        let queued = try await Blocking.run { () throws -> [RawConnection] in
            let queued = try (0..<2).map { _ in try RawConnection(port: port) }
            for connection in queued { connection.send(Self.get("/slow")) }
            return queued
        }
        await yieldUntil { server.waitingRequests >= 2 }
        try #require(server.waitingRequests == 2, "the two requests behind the busy thread are queued")
        let late = try await Blocking.run { try RawConnection(port: port) }
        let busy = [first] + queued + [late]
        busy[3].send(Self.get("/slow"))
        let refused = try await Blocking.run { String(decoding: busy[3].receive { Self.complete($0) }, as: UTF8.self) }
        let health = try await Curl.run(["-s", "http://127.0.0.1:\(port)/healthz"])
        for _ in 0..<3 { release.signal() }
        let answered = try await Blocking.run { busy[0..<3].map { Self.answer($0) } }
        for connection in busy { connection.close() }
        await server.stop()

        #expect(refused.hasPrefix("HTTP/1.1 503"))
        #expect(refused.lowercased().contains("retry-after: 1"))
        #expect(refused.contains("overloaded"))
        #expect(health == "ok /healthz")
        #expect(answered == Array(repeating: "HTTP/1.1 200", count: 3))
    }

    /// Whether an HTTP/1.1 answer with a content-length is all there.
    private static func complete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n"),
            let length = text.lowercased().components(separatedBy: "content-length: ").dropFirst().first
                .flatMap({ Int($0.prefix { $0.isNumber }) })
        else { return false }
        return text[end.upperBound...].utf8.count >= length
    }

    @Test func aConnectionThatCancelsFarMoreThanItGetsAnsweredIsShut() async throws {
        let handled = Counter()
        let server = try HTTPServer(HTTPServerOptions(port: 0, cancelledRequestAllowance: 100)) { _ in
            handled.value.add(1, ordering: .relaxed)
            return .text(200, "ok")
        }
        let attack = RapidResetAttack(
            port: server.port, path: "/readyz", streamBudget: 20_000, perConnectionLimit: 20_000, startedAfter: 0)
        let outcome = try await Blocking.run { try attack.run() }
        let counters = server.defenceCounters
        let health = try await Curl.run(["-s", "--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/healthz"])
        await server.stop()

        #expect(counters.connectionsShutForCancelling >= 1, "\(counters)")
        #expect(counters.cancelledRequests > 100, "\(counters)")
        #expect(outcome.endedByServer >= outcome.connections - 1, "\(outcome)")
        #expect(outcome.mostOnOneConnection < attack.perConnectionLimit, "\(outcome)")
        #expect(handled.value.load(ordering: .relaxed) < outcome.streams)
        #expect(health == "ok")
    }

    @Test func theConnectionCapKeepsAReserveBelowTheDescriptorLimit() {
        #expect(FileDescriptorLimit.reserve(limit: 1024) == 128)
        #expect(FileDescriptorLimit.reserve(limit: 20000) == 2500)
        #expect(FileDescriptorLimit.reserve(limit: 1 << 20) == 4096)
        #expect(FileDescriptorLimit.connectionCap(configured: nil, limit: 1024) == 896)
        #expect(FileDescriptorLimit.connectionCap(configured: 500, limit: 1024) == 500)
        #expect(FileDescriptorLimit.connectionCap(configured: 5000, limit: 1024) == 896)
        #expect(FileDescriptorLimit.connectionCap(configured: nil, limit: 100) == 16)
        #expect(FileDescriptorLimit.raiseSoftToHard() >= 256)
    }

    @Test func limitsMaxConnectionsIsReadAndRangeChecked() throws {
        let base = NSTemporaryDirectory() + "pushbutton-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try GatewayFixture.manifest.write(toFile: base + "/manifest.json", atomically: true, encoding: .utf8)
        let text = GatewayFixture.configurationText(
            mockPort: 2197, caFile: nil, webhookPort: nil, store: "sqlite:gateway.db")
        let parsed = GatewayConfiguration.parse(Array(text.utf8), baseDirectory: base)
        #expect(try #require(parsed.configuration).listen.maximumConnections == nil)
        let capped = text.replacingOccurrences(
            of: #""maxRecipients": 5000"#, with: #""maxRecipients": 5000, "maxConnections": 500"#)
        let read = GatewayConfiguration.parse(Array(capped.utf8), baseDirectory: base)
        #expect(try #require(read.configuration, "\(read.diagnostics)").listen.maximumConnections == 500)
        let tiny = text.replacingOccurrences(
            of: #""maxRecipients": 5000"#, with: #""maxRecipients": 5000, "maxConnections": 2"#)
        let refused = GatewayConfiguration.parse(Array(tiny.utf8), baseDirectory: base)
        #expect(refused.configuration == nil)
        #expect(refused.diagnostics.contains { $0.path.description == "limits.maxConnections" })
    }
}
