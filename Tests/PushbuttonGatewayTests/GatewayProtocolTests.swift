import Foundation
import PushbuttonAPNsMock
import PushbuttonGateway
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server side of the gateway: HTTP/2 (h2c and TLS with ALPN), body limits and slow clients.
@Suite(.timeLimit(.minutes(2)))
struct GatewayProtocolTests {
    @Test func theAPIAnswersOverHTTP2AndHTTP1() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let body = #"{"to": {"tokens": ["\#(GatewayFixture.token(1))"]}, "category": "message", "body": "Hi"}"#
        for flag in ["--http2-prior-knowledge", "--http1.1"] {
            let output = try await Curl.run([
                "-s", flag, "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "-H",
                "Authorization: Bearer \(GatewayFixture.secret)", "--data-binary", body,
                "\(fixture.base)/v1/apps/chat/notifications",
            ])
            #expect(output == (flag == "--http1.1" ? "202 1.1" : "202 2"))
        }
    }

    @Test func theAuthorityAndThePeerReachTheHandlerOverBothVersions() async throws {
        // The console's Origin check compares with the authority, and its sign-in throttle counts by peer: HTTP/2
        // has no Host header, so the authority must come from :authority there.
        let server = try HTTPServer(HTTPServerOptions(port: 0)) { request in
            .text(200, "\(request.authority) \(request.peer) \(request.header("host") ?? "-")")
        }
        defer { Task { await server.stop() } }
        let url = "http://127.0.0.1:\(server.port)/"
        let http2 = try await Curl.run(["-s", "--http2-prior-knowledge", url])
        #expect(http2 == "127.0.0.1:\(server.port) 127.0.0.1 -")
        let http1 = try await Curl.run(["-s", "--http1.1", "-H", "Host: gw.example", url])
        #expect(http1 == "gw.example 127.0.0.1 -")  // h2o moves Host into the authority
    }

    @Test func tlsNegotiatesHTTP2WithALPN() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-tls-" + UUID().uuidString
        let authority = try SelfSignedAuthority(directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try HTTPServer(
            HTTPServerOptions(
                port: 0, tls: .init(certificate: authority.certificateFile, key: authority.privateKeyFile))
        ) { request in .text(200, request.version) }
        defer { Task { await server.stop() } }
        let output = try await Curl.run(["-s", "--cacert", authority.caFile, "https://127.0.0.1:\(server.port)/"])
        #expect(output == "HTTP/2")
        let http1 = try await Curl.run([
            "-s", "--http1.1", "--cacert", authority.caFile, "https://127.0.0.1:\(server.port)/",
        ])
        #expect(http1 == "HTTP/1.1")
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(HTTPServerOptions(port: 0, tls: .init(certificate: "/nonexistent", key: "/nonexistent")))
            {
                _ in .text(200, "")
            }
        }
    }

    @Test func largeBodiesAre413AndSlowClientsAreCutOff() async throws {
        let server = try HTTPServer(
            HTTPServerOptions(port: 0, maximumBodyBytes: 1024, requestTimeout: .seconds(1))
        ) { request in .text(200, "\(request.body.count)") }
        defer { Task { await server.stop() } }
        let small = try await Curl.run([
            "-s", "--data-binary", String(repeating: "a", count: 1000), "http://127.0.0.1:\(server.port)/",
        ])
        #expect(small == "1000")
        let large = try await Curl.run([
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "a", count: 5000),
            "http://127.0.0.1:\(server.port)/",
        ])
        #expect(large == "413")

        // A client that sends half a request and stalls is disconnected after the request timeout.
        let port = server.port
        let waited = try await Blocking.run { () -> Duration in
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { return .seconds(100) }
            let partial = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc"
            _ = partial.withCString { send(descriptor, $0, strlen($0), 0) }
            let started = ContinuousClock.now
            var buffer = [UInt8](repeating: 0, count: 4096)
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while recv(descriptor, &buffer, buffer.count, 0) > 0 {}
            return ContinuousClock.now - started
        }
        #expect(waited < .seconds(5), "the stalled connection stayed open \(waited)")
    }
}
