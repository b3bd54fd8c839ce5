import Foundation
import Testing

@testable import PushbuttonGateway

@Suite(.timeLimit(.minutes(2)))
struct HTTPServerTests {
    @Test func answersHTTP1AndHTTP2WithTheRequestCopied() async throws {
        let server = try HTTPServer(HTTPServerOptions(port: 0)) { request in
            .text(
                200,
                "\(request.method) \(request.path) \(request.query["x"] ?? "-") \(request.version) "
                    + "\(request.header("X-Test") ?? "-") \(request.body.count)")
        }
        let http1 = try await Curl.run([
            "-s", "-H", "x-test: one", "--data-binary", "hello", "http://127.0.0.1:\(server.port)/v1/a?x=1%202",
        ])
        #expect(http1 == "POST /v1/a 1 2 HTTP/1.1 one 5")
        let http2 = try await Curl.run(["-s", "--http2-prior-knowledge", "http://127.0.0.1:\(server.port)/b"])
        #expect(http2 == "GET /b - HTTP/2 - 0")
        await server.stop()
    }
}
