import Foundation
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonSupport
import Synchronization
import Testing

@testable import PushbuttonGateway

/// Hostile clients against a running `pushbutton serve` (issue 32): HTTP/2 rapid reset, idle connections,
/// slowloris, header floods, oversized bodies. Each attack is bounded by a count, not a duration; what is
/// asserted is that a fresh client's `/healthz` is answered while it runs and that the server ended or
/// limited the attacking connections, never how fast.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct HostileHTTPTests {
    /// A gateway process on SQLite with an in-process mock APNs (h2c) and a 64 KiB body limit.
    final class Running: @unchecked Sendable {
        // `@unchecked Sendable`: set in `start` and only read afterwards.
        let server: ServeProcess
        let mock: MockAPNs
        let directory: String
        var port: Int { server.port }

        init(server: ServeProcess, mock: MockAPNs, directory: String) {
            self.server = server
            self.mock = mock
            self.directory = directory
        }

        static func start() async throws -> Running {
            let directory = NSTemporaryDirectory() + "pushbutton-hostile-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let key = try P256PrivateKey.generate()
            try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
            try GatewayFixture.manifest.write(
                toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
            let mock = try await MockAPNs.start(
                MockAPNsConfiguration(
                    security: .h2c,
                    keys: [
                        try MockProviderKey(
                            keyID: GatewayFixture.keyID, teamID: GatewayFixture.teamID, privateKey: key)
                    ]))
            let config = GatewayFixture.configurationText(
                mockPort: mock.port, caFile: nil, webhookPort: nil, store: "sqlite:\(directory)/gateway.db",
                workers: 1
            ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
                .replacingOccurrences(of: #""maxBodyBytes": 4194304"#, with: #""maxBodyBytes": 65536"#)
            try config.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
            chmod(directory + "/AuthKey.p8", 0o600)
            chmod(directory + "/gateway.json", 0o600)
            let server = try await Blocking.run {
                try ServeProcess(config: directory + "/gateway.json", logDirectory: directory)
            }
            return Running(server: server, mock: mock, directory: directory)
        }

        func stop() async {
            server.terminate()
            await mock.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// The gateway's resident memory in KiB, from the kernel.
        var residentKiB: Int {
            let status =
                (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8))
                ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }

        /// `/healthz` from a fresh client (HTTP/1.1 and HTTP/2): its status codes.
        func probeHealth() async throws -> [String] {
            let url = "http://127.0.0.1:\(port)/healthz"
            let http1 = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", url])
            let http2 = try await Curl.run([
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", url,
            ])
            return [http1, http2]
        }
    }

    @Test func rapidResetConnectionsAreEndedAndHealthzIsAnswered() async throws {
        let gateway = try await Running.start()
        _ = try await gateway.probeHealth()
        let before = gateway.residentKiB
        // /readyz: each request a store call, the costliest route without a key.
        let attack = RapidResetAttack(
            port: gateway.port, path: "/readyz", streamBudget: 200_000, perConnectionLimit: 100_000)
        let running = Task { try await Blocking.run { try attack.run() } }
        for await _ in attack.started { break }
        let during = try await gateway.probeHealth()
        attack.stop()
        let outcome = try await running.value
        let after = gateway.residentKiB
        let afterwards = try await gateway.probeHealth()
        await gateway.stop()

        #expect(during == ["200", "200"], "a fresh client's /healthz while the attack ran")
        #expect(afterwards == ["200", "200"])
        // Every connection but the one the attack ended itself was ended by the server, long before the
        // attack's own per-connection limit.
        #expect(outcome.connections >= 1)
        #expect(outcome.endedByServer >= outcome.connections - 1, "\(outcome)")
        #expect(outcome.mostOnOneConnection < attack.perConnectionLimit, "\(outcome)")
        #expect(after - before < 100 * 1024, "RSS grew from \(before) KiB to \(after) KiB")
    }

    @Test func idleSlowAndFloodingConnectionsLeaveHealthzAnswered() async throws {
        let limit = FileDescriptorLimit.raiseSoftToHard()
        let gateway = try await Running.start()
        let before = gateway.residentKiB
        let port = gateway.port
        // 2,000 idle connections (fewer if this process may not open them), half of them HTTP/2 prefaces.
        let idleCount = min(2000, limit - 400)
        let idle = try await Blocking.run {
            try (0..<idleCount).map { index in
                let connection = try RawConnection(port: port)
                if index % 2 == 0 { connection.send(HTTP2Frames.preface) }
                return connection
            }
        }
        // Slowloris: 100 requests whose headers never end.
        let slow = try await Blocking.run {
            try (0..<100).map { _ in
                let connection = try RawConnection(port: port)
                connection.send(Array("POST /v1/apps/chat/notifications HTTP/1.1\r\nHost: x\r\nX-Slow: aaaa".utf8))
                return connection
            }
        }
        let during = try await gateway.probeHealth()

        // Header floods: 1 MiB of header lines on HTTP/1.1, and HEADERS followed by endless CONTINUATION
        // frames on HTTP/2. The server must answer 4xx or hang up, not buffer them.
        let floods = try await Blocking.run {
            try (0..<10).map { index -> String in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                if index % 2 == 0 {
                    var request = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8)
                    let line = Array("X-Flood: \(String(repeating: "a", count: 1000))\r\n".utf8)
                    for _ in 0..<1000 { request += line }
                    connection.send(request + Array("\r\n".utf8))
                    let answer = connection.receive { $0.count >= 12 }
                    return String(decoding: answer.prefix(12), as: UTF8.self)
                }
                var frames = HTTP2Frames.preface
                frames += HTTP2Frames.frame(
                    type: 1, flags: 0x01, stream: 1, HTTP2Frames.requestBlock(path: "/healthz"))
                let junk = (0..<100).flatMap { _ in
                    [UInt8(0x00), 7] + Array("x-flood".utf8) + [100] + [UInt8](repeating: 0x61, count: 100)
                }
                for _ in 0..<256 { frames += HTTP2Frames.frame(type: 9, flags: 0, stream: 1, junk) }
                connection.send(frames)
                return "h2 ended after \(connection.drain()) bytes"
            }
        }
        let afterFloods = try await gateway.probeHealth()
        let peak = gateway.residentKiB
        try await Blocking.run {
            for connection in idle + slow { connection.close() }
        }
        let afterwards = try await gateway.probeHealth()
        await gateway.stop()

        #expect(idle.count == idleCount)
        #expect(during == ["200", "200"], "a fresh client's /healthz with \(idleCount) idle and 100 slow connections")
        #expect(afterFloods == ["200", "200"])
        #expect(afterwards == ["200", "200"])
        for (index, answer) in floods.enumerated() where index % 2 == 0 {
            #expect(answer.hasPrefix("HTTP/1.1 4") || answer.isEmpty, "HTTP/1.1 header flood answered '\(answer)'")
        }
        #expect(peak - before < 200 * 1024, "RSS grew from \(before) KiB to \(peak) KiB")
    }

    @Test func oversizedBodiesAreRefusedWithoutBeingRead() async throws {
        let gateway = try await Running.start()
        let port = gateway.port
        let answers = try await Blocking.run { () throws -> [String] in
            // HTTP/1.1: a gigabyte announced, one kilobyte sent; the answer comes without the rest.
            let http1 = try RawConnection(port: port)
            defer { http1.close() }
            http1.send(
                Array(
                    "POST /v1/apps/chat/notifications HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n"
                        .utf8) + [UInt8](repeating: 0x7B, count: 1024))
            let first = http1.receive { $0.count >= 12 }
            // HTTP/2: the same on a stream. h2o 2.2.5 checks the body as it comes (not the announced length):
            // 80 KB in DATA frames pass the 64 KiB limit and the stream ends without the rest, with a 413 or
            // (what it does when the limit is passed mid-frame) RST_STREAM REFUSED_STREAM.
            let http2 = try RawConnection(port: port)
            defer { http2.close() }
            var frames =
                HTTP2Frames.preface
                + HTTP2Frames.headers(
                    stream: 1,
                    HTTP2Frames.requestBlock(
                        method: "POST", path: "/v1/apps/chat/notifications",
                        extra: [("content-length", "1000000000")]), endStream: false)
            for _ in 0..<5 { frames += HTTP2Frames.data(stream: 1, [UInt8](repeating: 0x7B, count: 16000)) }
            http2.send(frames)
            let second = http2.receive { Self.http2Answer(in: $0) != nil }
            return [String(decoding: first.prefix(12), as: UTF8.self), Self.http2Answer(in: second) ?? "none"]
        }
        await gateway.stop()
        #expect(answers[0] == "HTTP/1.1 413")
        #expect(["status 413", "reset 7"].contains(answers[1]), "HTTP/2 answered \(answers[1])")
    }

    /// How stream 1 was answered in `bytes`, if it was: "status N" from its HEADERS frame (an indexed static
    /// entry 8 to 14, or a literal with the name `:status`, index 8, and a plain value), or "reset N" from
    /// RST_STREAM with error code N.
    static func http2Answer(in bytes: [UInt8]) -> String? {
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let type = bytes[offset + 3]
            let stream =
                Int(bytes[offset + 5] & 0x7F) << 24 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
            guard offset + 9 + length <= bytes.count else { return nil }
            let payload = Array(bytes[(offset + 9)..<(offset + 9 + length)])
            if type == 3 && stream == 1 && payload.count == 4 { return "reset \(payload[3])" }
            if type == 1 && stream == 1, let first = payload.first {
                let indexed = ["200", "204", "206", "304", "400", "404", "500"]
                if first & 0x80 != 0 {
                    let index = Int(first & 0x7F)
                    return (8...14).contains(index) ? "status \(indexed[index - 8])" : "indexed \(index)"
                }
                // Literal: with incremental indexing (01xxxxxx, 6-bit name index) or without (0000xxxx).
                let nameIndex = first & 0x40 != 0 ? first & 0x3F : first & 0x0F
                guard nameIndex == 8, payload.count >= 2, payload[1] & 0x80 == 0 else { return "unparsed" }
                let valueLength = Int(payload[1])
                guard payload.count >= 2 + valueLength else { return nil }
                return "status " + String(decoding: payload[2..<(2 + valueLength)], as: UTF8.self)
            }
            offset += 9 + length
        }
        return nil
    }
}
